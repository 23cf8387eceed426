#!/usr/bin/env python3
"""Captures with known edges, in every format rtipc-bench scope reads.

    scope_captures.py DIR [--big]
    scope_captures.py DIR --pulses N     (one VCD of N pulses a line: pulses-N.vcd)

Writes into DIR one made-up capture of two lines (start: the producer's,
end: the consumer's) in each format, sampled at 25 MHz, and the pairs they
hold (expected-*.txt, as scope --latencies writes them), plus odd captures:
glitches, a missing end, inverted idle levels, a capture that starts in the
middle of a pulse, and with --big one of 10^6 edges. The pseudo-random
choices are seeded: every run writes the same files."""
import os
import random
import struct
import sys
import zipfile

RATE = 25_000_000  # samples/s: 40 ns a sample
NS = 1_000_000_000 // RATE


def pulses(n, seed):
    """n (start_rise, start_fall, end_rise, end_fall) in samples."""
    rng = random.Random(seed)
    out, t = [], 100
    for _ in range(n):
        lat = rng.randint(5, 250)
        s_w = rng.randint(3, 10)
        e_w = rng.randint(5, 20)
        out.append((t, t + s_w, t + lat, t + lat + e_w))
        t += lat + e_w + rng.randint(300, 700)
    return out, t + 100


def edges(ps):
    """Per line, the (sample, level) changes; both lines start low."""
    start = [(a, 1) for a, b, _, _ in ps] + [(b, 0) for a, b, _, _ in ps]
    end = [(c, 1) for _, _, c, d in ps] + [(d, 0) for _, _, c, d in ps]
    return sorted(start), sorted(end)


def expected(path, pairs):
    with open(path, "w") as f:
        f.write("# start_sample end_sample latency_samples latency_ns (%.9g samples/s)\n" % RATE)
        for s, e in pairs:
            f.write("%d %d %d %.3f\n" % (s, e, e - s, (e - s) * 1e9 / RATE))


def vcd(path, lines, last, initial=(0, 0), scale_ns=NS):
    """lines: [(name, [(sample, level)])]; times in ns (timescale 1 ns)."""
    ids = "!\"#$%"
    with open(path, "w") as f:
        f.write("$version scope_captures.py $end\n$timescale 1 ns $end\n$scope module board $end\n")
        for k, (name, _) in enumerate(lines):
            f.write("$var wire 1 %s %s $end\n" % (ids[k], name))
        f.write("$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n")
        for k in range(len(lines)):
            f.write("%d%s\n" % (initial[k], ids[k]))
        f.write("$end\n")
        changes = sorted((t, k, v) for k, (_, es) in enumerate(lines) for t, v in es)
        now = None
        for t, k, v in changes:
            if t != now:
                f.write("#%d\n" % (t * scale_ns))
                now = t
            f.write("%d%s\n" % (v, ids[k]))
        f.write("#%d\n" % (last * scale_ns))


def saleae_csv(path, start, end, last):
    changes = sorted(set(t for t, _ in start + end) | {0})
    s_at, e_at = dict(start), dict(end)
    sv = ev = 0
    with open(path, "w") as f:
        f.write("Time [s],send,recv\n")
        for t in changes:
            sv = s_at.get(t, sv)
            ev = e_at.get(t, ev)
            f.write("%.9f,%d,%d\n" % (t / RATE, sv, ev))
        f.write("%.9f,%d,%d\n" % (last / RATE, sv, ev))


def saleae_bin(path, es, last, version):
    with open(path, "wb") as f:
        f.write(b"<SALEAE>" + struct.pack("<ii", version, 0))
        if version == 1:
            f.write(struct.pack("<Q", 1))
        f.write(struct.pack("<I", 0))
        if version == 1:
            f.write(struct.pack("<d", float(RATE)))
        f.write(struct.pack("<ddQ", 0.0, last / RATE, len(es)))
        for t, _ in es:
            f.write(struct.pack("<d", t / RATE))


def rigol_csv(path, start, end, last, seed):
    rng = random.Random(seed)
    s_at, e_at = dict(start), dict(end)
    sv = ev = 0
    with open(path, "w") as f:
        f.write("X,CH1,CH2,Start,Increment,\n")
        f.write("Sequence,Volt,Volt,0.000000e+00,%e,\n" % (1 / RATE))
        for t in range(last):
            sv = s_at.get(t, sv)
            ev = e_at.get(t, ev)
            f.write("%d,%.3f,%.3f,\n" % (t, 3.3 * sv + rng.uniform(-0.1, 0.1), 3.3 * ev + rng.uniform(-0.1, 0.1)))


def raw_logic(path, start, end, last):
    """One byte a sample, bit 0 the start line, bit 1 the end line
    (sigrok-cli -I binary turns it into a session file)."""
    s_at, e_at = dict(start), dict(end)
    sv = ev = 0
    buf = bytearray(last)
    for t in range(last):
        sv = s_at.get(t, sv)
        ev = e_at.get(t, ev)
        buf[t] = sv | ev << 1
    with open(path, "wb") as f:
        f.write(buf)


def main():
    out = sys.argv[1]
    big = "--big" in sys.argv[2:]
    os.makedirs(out, exist_ok=True)
    if "--pulses" in sys.argv[2:]:
        n = int(sys.argv[sys.argv.index("--pulses") + 1])
        np_, nlast = pulses(n, 5)
        ns, ne = edges(np_)
        vcd(os.path.join(out, "pulses-%d.vcd" % n), [("send", ns), ("recv", ne)], nlast)
        return
    ps, last = pulses(100, 1)
    start, end = edges(ps)
    pairs = [(a, c) for a, _, c, _ in ps]
    expected(os.path.join(out, "expected.txt"), pairs)
    vcd(os.path.join(out, "clean.vcd"), [("send", start), ("recv", end)], last)
    saleae_csv(os.path.join(out, "clean-saleae.csv"), start, end, last)
    for v in (0, 1):
        d = os.path.join(out, "saleae-v%d" % v)
        os.makedirs(d, exist_ok=True)
        saleae_bin(os.path.join(d, "digital_0.bin"), start, last, v)
        saleae_bin(os.path.join(d, "digital_1.bin"), end, last, v)
    rigol_csv(os.path.join(out, "clean-rigol.csv"), start, end, last, 2)
    raw_logic(os.path.join(out, "clean.raw"), start, end, last)

    # Glitches: one-sample pulses between the real ones, on both lines.
    rng = random.Random(3)
    gs, ge = list(start), list(end)
    for k in range(0, 90, 9):
        t = ps[k][3] + 30
        (gs if k % 2 else ge).extend([(t, 1), (t + 1, 0)])
    vcd(os.path.join(out, "glitch.vcd"), [("send", sorted(gs)), ("recv", sorted(ge))], last)

    # A missing end: pair 10's end pulse never came.
    miss = [e for e in end if e[0] not in (ps[10][2], ps[10][3])]
    vcd(os.path.join(out, "missing.vcd"), [("send", start), ("recv", miss)], last)
    expected(os.path.join(out, "expected-missing.txt"), [p for k, p in enumerate(pairs) if k != 10])
    expected(os.path.join(out, "expected-missing-run.txt"), [p for k, p in enumerate(pairs) if k not in (10, 11)])

    # Inverted idle levels: both lines rest high, pulses go low.
    vcd(os.path.join(out, "inverted.vcd"), [("send", [(t, 1 - v) for t, v in start]),
                                            ("recv", [(t, 1 - v) for t, v in end])], last, initial=(1, 1))

    # Starts in the middle of pulse 0's start pulse: the start line is high
    # at sample 0 (its rising edge came before the capture), so pulse 0's
    # end has no start in the capture.
    cut = ps[0][0] + 1
    mid_s = [(t - cut, v) for t, v in start if t >= cut]
    mid_e = [(t - cut, v) for t, v in end if t >= cut]
    vcd(os.path.join(out, "midpulse.vcd"), [("send", mid_s), ("recv", mid_e)], last - cut, initial=(1, 0))
    expected(os.path.join(out, "expected-midpulse.txt"), [(a - cut, c - cut) for a, c in pairs[1:]])

    # No edge at all, and a zip that is not a sigrok session.
    vcd(os.path.join(out, "flat.vcd"), [("send", []), ("recv", [])], 1000)
    with zipfile.ZipFile(os.path.join(out, "foreign.sr"), "w") as z:
        z.writestr("readme.txt", "not a sigrok session")

    if big:
        # 10^6 edges: 250,000 pulses on each line.
        bp, blast = pulses(250_000, 4)
        bs, be = edges(bp)
        vcd(os.path.join(out, "big.vcd"), [("send", bs), ("recv", be)], blast)
        expected(os.path.join(out, "expected-big.txt"), [(a, c) for a, _, c, _ in bp])


if __name__ == "__main__":
    main()
