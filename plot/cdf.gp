# Distribution of the per-operation times at one N: the empirical CDF of
# every operation of every repetition and boot, one line per variant, one
# panel per metric.  Dash and point types differ for black-and-white print.
#
# gnuplot -e "data='d.dat'; metrics='cdev_add_ns cdev_del_ns';
#             variants='stock sysfs-cdev'; out='x'; title='...'" cdf.gp
# data: for each metric and each variant (in order) a block of "ns" lines,
#       blocks separated by two blank lines.  Writes out.png and out.svg.

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
		set logscale x
		set xlabel "ns per operation"
		set ylabel "fraction of operations"
		set yrange [0:1]
		set key bottom right noenhanced
		set grid
		plot for [v = 1:nv] data index ((m - 1) * nv + v - 1) \
			using 1:(1) smooth cnormal with steps lc v dt v lw 1.5 \
			title word(variants, v)
	}
	unset multiplot
}
