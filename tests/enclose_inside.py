"""Whether the reference state (the last CSV row of a floating run) lies in
every ball (X, X.rad) of the last row of a `simulate --enclose` run, read
exactly as decimals; prints `inside|outside WIDEST` (the widest radius)."""
import sys
from fractions import Fraction


def last_row(path):
    rows = [r for r in open(path).read().split("\n") if r]
    return rows[0].split(","), rows[-1].split(",")


def main(enc, ref, n):
    head, row = last_row(enc)
    _, ref_row = last_row(ref)
    inside, widest = True, 0.0
    for i in range(n):
        x, rad, y = Fraction(row[1 + 2 * i]), Fraction(row[2 + 2 * i]), Fraction(ref_row[1 + i])
        inside = inside and abs(x - y) <= rad
        widest = max(widest, float(rad))
    print("inside" if inside else "outside", "%.3e" % widest)


main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
