# One line per variant against a parameter (N, threads, a histogram
# bucket), one panel per series, with error bars (the range of the boots
# around the median of per-boot medians; none where y_low = y_high = y).
# Lines differ in dash and point type as well as colour, so the figure
# reads in black-and-white print.
#
# gnuplot -e "data='d.dat'; panels='cdev_add_ns cdev_del_ns';
#             variants='stock sysfs-cdev'; xlabel='N (cdevs registered)';
#             ylabel='ns per operation (median of boots, range)'; logx=1;
#             logy='1 1'; array notes = ["", "no rows: stock"]; out='x';
#             title='...'" lines.gp
# logy: per panel, 1 for a log y axis (0 where a panel has zeros).
# notes: per panel, a line under its title ("" for none): the variants
#        it has no line of.
# data: for each panel (in order) and each variant (in order) a block of
#       "x y y_low y_high" lines, blocks separated by two blank lines.
# Writes out.png and out.svg.

np = words(panels)
nv = words(variants)

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 560*np+160,460 font "sans,10" dashed
	} else {
		set terminal svg size 560*np+160,460 font "sans,10" dashed
	}
	set output out . "." . fmt
	set multiplot layout 1,np title title noenhanced
	do for [m = 1:np] {
		set title word(panels, m) . (strlen(notes[m]) ? "\n" . notes[m] : "") noenhanced
		if (logx) { set logscale x } else { unset logscale x; set xtics 1 }
		if (word(logy, m) eq "1") { set logscale y; set autoscale y } else { unset logscale y; set yrange [0:*] }
		set xlabel xlabel
		set ylabel ylabel
		# one key, beside the last panel: inside the axes it hid the
		# lines that end high
		if (m == np) { set key outside right top vertical noenhanced } else { unset key }
		set grid
		set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
		plot for [v = 1:nv] data index ((m - 1) * nv + v - 1) \
			using 1:2:3:4 with yerrorlines lc v dt v pt v + 3 lw 1.5 \
			title word(variants, v)
	}
	unset multiplot
}
