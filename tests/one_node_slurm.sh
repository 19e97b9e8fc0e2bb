#!/bin/bash
# A Slurm cluster of this one machine, for the tests: munged with its own
# key, slurmctld and slurmd with their own configuration, state and logs,
# all in DIR, talking over loopback on two free ports.  Nothing of the
# machine's own munge or Slurm setup is read or changed.
#   tests/one_node_slurm.sh start DIR   prints SLURM_CONF=DIR/slurm.conf
#   tests/one_node_slurm.sh stop DIR    stops whatever start started
# Needs root (slurmd runs jobs as their users) and Debian's slurmctld,
# slurmd, slurm-client and munge (make deps).
set -euo pipefail
action=${1:?usage: one_node_slurm.sh start|stop DIR}
dir=${2:?usage: one_node_slurm.sh start|stop DIR}

stop() {
	local daemon pid
	for daemon in slurmd slurmctld munged; do
		pid=$(cat "$dir/$daemon.pid" 2> /dev/null) || continue
		kill "$pid" 2> /dev/null || continue
		for _ in $(seq 50); do kill -0 "$pid" 2> /dev/null || break; sleep 0.2; done
		kill -9 "$pid" 2> /dev/null || true
	done
	[ ! -f "$dir/munge.socket_dir" ] || rm -rf "$(cat "$dir/munge.socket_dir")"
}

# A TCP port nobody listens on on loopback (a connection is refused),
# from $1 up.
free_port() {
	local port
	for port in $(seq "$1" $(($1 + 200))); do
		(: < "/dev/tcp/127.0.0.1/$port") 2> /dev/null || { echo "$port"; return; }
	done
	echo "no free port from $1" >&2
	return 1
}

start() {
	local node ctld_port slurmd_port socket_dir socket
	[ "$(id -u)" = 0 ] || { echo "one_node_slurm.sh: needs root" >&2; return 1; }
	mkdir -p "$dir/state" "$dir/spool"
	head -c 1024 /dev/urandom > "$dir/munge.key"
	chmod 600 "$dir/munge.key"
	# munged wants every folder above its socket searchable by all, which
	# DIR's (a mktemp -d, say) may not be: the socket goes under /tmp.
	socket_dir=$(mktemp -d /tmp/cdevbench-munge.XXXXXX)
	chmod 711 "$socket_dir"
	echo "$socket_dir" > "$dir/munge.socket_dir"
	socket=$socket_dir/munge.socket
	munged --key-file="$dir/munge.key" --socket="$socket" --pid-file="$dir/munged.pid" \
		--log-file="$dir/munged.log" --seed-file="$dir/munged.seed" || return 1
	node=$(hostname -s)
	ctld_port=$(free_port 26817)
	slurmd_port=$(free_port $((ctld_port + 1)))
	# No cgroups, no accounting: process groups track a job's processes.
	cat > "$dir/slurm.conf" <<-EOF
	ClusterName=cdevbench-test
	SlurmctldHost=$node(127.0.0.1)
	SlurmctldPort=$ctld_port
	SlurmdPort=$slurmd_port
	SlurmUser=root
	AuthType=auth/munge
	AuthInfo=socket=$socket
	CredType=cred/munge
	StateSaveLocation=$dir/state
	SlurmdSpoolDir=$dir/spool
	SlurmctldPidFile=$dir/slurmctld.pid
	SlurmdPidFile=$dir/slurmd.pid
	SlurmctldLogFile=$dir/slurmctld.log
	SlurmdLogFile=$dir/slurmd.log
	ProctrackType=proctrack/pgid
	TaskPlugin=task/none
	SelectType=select/cons_tres
	SelectTypeParameters=CR_CPU
	MpiDefault=none
	SwitchType=switch/none
	JobCompType=jobcomp/none
	AccountingStorageType=accounting_storage/none
	JobAcctGatherType=jobacct_gather/none
	ReturnToService=2
	NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
	PartitionName=rig Nodes=ALL Default=YES MaxTime=INFINITE State=UP
	EOF
	slurmctld -f "$dir/slurm.conf" || return 1
	slurmd -f "$dir/slurm.conf" || return 1
	for _ in $(seq 60); do
		[ "$(SLURM_CONF=$dir/slurm.conf sinfo -h -o %t 2> /dev/null)" = idle ] && {
			echo "SLURM_CONF=$dir/slurm.conf"
			return
		}
		sleep 1
	done
	echo "one_node_slurm.sh: the node did not come up within 60 s; logs in $dir" >&2
	tail -n 5 "$dir"/*.log >&2 || true
	return 1
}

case $action in
start) start || { stop; exit 1; } ;;
stop) stop ;;
*) echo "usage: one_node_slurm.sh start|stop DIR" >&2; exit 2 ;;
esac
