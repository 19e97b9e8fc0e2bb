# Variant / baseline against a parameter (N, threads): a column per
# metric and a row per variant, each panel on a linear axis of its own,
# the ratio of medians with its interval over the A/A band (the A/A arm's
# interval, or 1 -/+ the baseline's boot spread), so that a 1% change
# shows where a log axis over three decades, or a nine-fold change in the
# next variant, hides it.
#
# gnuplot -e "data='d.dat'; panels='cdev_add_ns cdev_del_ns';
#             variants='sysfs-cdev cdev-xarray'; baseline='stock';
#             xlabel='N (cdevs registered)'; logx=1; out='x'; title='...'" ratio.gp
# data: for each panel (in order) a block of "x aa_low aa_high" lines,
#       then for each variant (in order) a block of "x ratio low high";
#       blocks separated by two blank lines.  Writes out.png and out.svg.
# Variant v is the (v + 1)-th of the run (the baseline is the first), and
# takes that line type, as in lines.gp and cdf.gp: one colour, dash and
# point type per variant in every plot.

np = words(panels)
nv = words(variants)

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 480*np,260*nv+60 font "sans,9" dashed
	} else {
		set terminal svg size 480*np,260*nv+60 font "sans,9" dashed
	}
	set output out . "." . fmt
	# the band's key once, in the title: a key in each panel hid points
	set multiplot layout nv,np title title . "; grey: the A/A band" noenhanced
	do for [v = 1:nv] {
		do for [m = 1:np] {
			set title word(variants, v) . " / " . baseline . ": " . word(panels, m) noenhanced
			if (logx) { set logscale x } else { unset logscale x; set xtics 1 }
			set xlabel xlabel
			set ylabel "ratio of medians" noenhanced
			unset key
			set grid
			set offsets graph 0.05, graph 0.05, graph 0.1, graph 0.1
			set style fill transparent solid 0.25 noborder
			plot data index ((m - 1) * (nv + 1)) using 1:2:3 with filledcurves \
				lc rgb "gray50" title "A/A band", \
				1 with lines lc rgb "black" dt 1 lw 1 notitle, \
				data index ((m - 1) * (nv + 1) + v) using 1:2:3:4 \
				with yerrorlines lc v + 1 dt v + 1 pt v + 4 lw 1.5 notitle
		}
	}
	unset multiplot
}
