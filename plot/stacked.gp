# Stacked bars: one bar per variant, one segment per part (such as the
# allocation sites of memory per cdev).  Segments differ in fill pattern,
# for black-and-white print.
#
# gnuplot -e "data='d.dat'; ylabel='bytes per cdev'; out='x'; title='...'" stacked.gp
# data: a header line "variant part1 part2 ...", then one line per
# variant with the value of each part (0 where it has none).
# Writes out.png and out.svg.

ncols = system("head -1 " . data . " | wc -w") + 0

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 900,480 font "sans,10"
	} else {
		set terminal svg size 900,480 font "sans,10"
	}
	set output out . "." . fmt
	set title title noenhanced
	set ylabel ylabel
	set xlabel "variant"
	set yrange [0:*]
	set style data histograms
	set style histogram rowstacked
	set style fill pattern border -1
	set boxwidth 0.5
	set grid ytics
	set key outside right top noenhanced title "allocation site"
	plot for [c = 2:ncols] data using c:xtic(1) title columnhead(c) fs pattern (c - 2) % 8 lc black
}
