# One bar per variant, the median of its per-boot medians with the range of
# the boots, for a
# single figure such as memory per cdev.  Bars differ in fill pattern, for
# black-and-white print.
#
# gnuplot -e "data='d.dat'; ylabel='bytes per cdev'; out='x'; title='...'" bars.gp
# data: "variant median ci_low ci_high" lines.  Writes out.png and out.svg.

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 640,460 font "sans,10"
	} else {
		set terminal svg size 640,460 font "sans,10"
	}
	set output out . "." . fmt
	set title title noenhanced
	set ylabel ylabel . " (median of boots, range)"
	set xlabel "variant"
	# slanted, so that six arms' names (cdev-open-local ...) do not run
	# into each other
	set xtics rotate by -25 left noenhanced
	set yrange [0:*]
	set style fill pattern 2 border
	set boxwidth 0.5
	set style textbox opaque noborder
	set grid ytics
	unset key
	plot data using 0:2:xtic(1) with boxes lc black, \
		'' using 0:2:3:4 with yerrorbars lc black pt 0, \
		'' using 0:(0):(sprintf("%.0f", $2)) with labels offset 0,1 boxed
}
