# A walk of a series, patch by patch (make bench WALK=1): a row per walk
# and a panel per metric, the metric's median of boots and their range at
# each step (0 the baseline, k the first k patches, the last the whole
# series) as a staircase, a line per value of a param (N, threads), each
# over the A/A band around its step 0, so that the step where a line
# leaves its band is the patch that moved it.  A step left out (not bisectable) has no
# point.  Lines are the param's values here, not variants: each value
# takes one colour, dash and point type in every panel.
#
# gnuplot -e "data='d.dat'; panels='cdev_add_ns cdev_del_ns';
#             walks='sysfs-cdev'; steps='3'; froms='stock';
#             values='1 10 100'; key='N (cdevs registered)';
#             ylabel='ns per operation'; logy='1 1'; out='x'; title='...'" walk.gp
# data: for each walk, each panel and each value (in order) a block of
#       "step median low high band_low band_high" lines, blocks separated
#       by two blank lines.  logy: per panel, 1 for a log y axis.  Writes
#       out.png and out.svg.

np = words(panels)
nw = words(walks)
nv = words(values)

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 480*np,300*nw+60 font "sans,9" dashed
	} else {
		set terminal svg size 480*np,300*nw+60 font "sans,9" dashed
	}
	set output out . "." . fmt
	set multiplot layout nw,np title title noenhanced
	do for [w = 1:nw] {
		do for [m = 1:np] {
			set title word(walks, w) . ", patch by patch: " . word(panels, m) noenhanced
			set xrange [-0.5:word(steps, w) + 0.5]
			set xtics 1
			set xlabel "patches applied (0: " . word(froms, w) . ")" noenhanced
			if (word(logy, m) eq "1") { set logscale y; set autoscale y } else { unset logscale y; set yrange [0:*] }
			set ylabel ylabel
			set key top left noenhanced title key
			set grid
			set style fill transparent solid 0.15 noborder
			b = ((w - 1) * np + m - 1) * nv
			plot for [v = 1:nv] data index (b + v - 1) using 1:5:6 with filledcurves \
				lc v notitle, \
				for [v = 1:nv] data index (b + v - 1) using 1:2 with histeps \
				lc v dt v lw 1.5 title word(values, v), \
				for [v = 1:nv] data index (b + v - 1) using 1:2:3:4 with yerrorbars \
				lc v pt v + 3 notitle
		}
	}
	unset multiplot
}
