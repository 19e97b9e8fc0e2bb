# Median per variant against N, log-log, one panel per metric, with the
# bootstrap 95% interval of each median as error bars.  Lines differ in
# dash and point type as well as colour, for black-and-white print.
#
# gnuplot -e "data='d.dat'; metrics='cdev_add_ns cdev_del_ns';
#             variants='stock sysfs-cdev'; out='x'; title='...'" vs_n.gp
# data: for each metric (in order) and each variant (in order) a block of
#       "N median ci_low ci_high" lines, blocks separated by two blank lines.
# Writes out.png and out.svg.

nm = words(metrics)
nv = words(variants)

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 640*nm,480 font "sans,10" dashed
	} else {
		set terminal svg size 640*nm,480 font "sans,10" dashed
	}
	set output out . "." . fmt
	set multiplot layout 1,nm title title
	do for [m = 1:nm] {
		set title word(metrics, m) noenhanced
		set logscale xy
		set xlabel "N (cdevs registered)"
		set ylabel "ns per operation (median, 95% CI)"
		set key top left noenhanced
		set grid
		set offsets graph 0.05, graph 0.05, 0, 0
		plot for [v = 1:nv] data index ((m - 1) * nv + v - 1) \
			using 1:2:3:4 with yerrorlines dt v pt v + 3 lw 1.5 \
			title word(variants, v)
	}
	unset multiplot
}
