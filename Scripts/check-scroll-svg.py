#!/usr/bin/env python3
"""Checks an animated `--scroll-to` SVG in headless Chromium against cvlayout itself.

usage: check-scroll-svg.py CVLAYOUT 'ENGINE [OPTIONS]' T1 [T2 …]

Runs `CVLAYOUT ENGINE OPTIONS -f svg` (OPTIONS must hold --scroll-to; --offset, --frames,
--duration, --timing and --snap are read from them), opens the SVG in headless Chromium paused
at each time T (seconds), and finds every element's drawn box through its
`data-index-path`/`data-kind`. For each T it runs `CVLAYOUT ENGINE OPTIONS-without-the-scroll
--offset O -f json` at the offset O of that moment (the timing function applied, as
`ScrollAnimation` defines it) and compares each visible element's transformed frame's bounding
box's edges with the drawn one's. Prints the largest difference per moment, in points; exits 1
when one is half a point or more (a pixel, 1/S, with --scale S below 2). The scroll options
must be in the command, not in a dataset's "options". Needs `chromium` (Debian's package).
"""
import json, math, os, shlex, subprocess, sys, tempfile

def main():
    cvlayout, words, times = sys.argv[1], shlex.split(sys.argv[2]), [float(t) for t in sys.argv[3:]]
    opts = {}
    rest = [words[0]]
    i = 1
    while i < len(words):
        w = words[i]
        name, eq, value = w.partition("=")
        if name in ("--scroll-to", "--offset", "--frames", "--duration", "--timing"):
            if eq:
                opts[name] = value; i += 1
            else:
                opts[name] = words[i + 1]; i += 2
            continue
        if w == "--snap":
            opts[w] = True; i += 1; continue
        rest.append(w); i += 1
    if "--scroll-to" not in opts:
        sys.exit("check-scroll-svg.py: give --scroll-to X,Y (and the other scroll options) in the command, "
                 "not in a dataset's \"options\"")
    scale = None
    for j, w in enumerate(rest):
        if w == "--scale": scale = float(rest[j + 1])
        elif w.startswith("--scale="): scale = float(w.split("=", 1)[1])
    bound = 1 / scale if scale and scale < 2 else 0.5
    point = lambda s: tuple(float(v) for v in s.split(","))
    start = point(opts.get("--offset", "0,0")); end = point(opts["--scroll-to"])
    n = int(opts.get("--frames", 60)); duration = float(opts.get("--duration", 2))
    ease = (lambda u: u) if opts.get("--timing") == "linear" else (lambda u: 1 - (1 - u) ** 3)
    legs = [(0.0, 1.0, start, end)]
    if opts.get("--snap"):
        # The target: the engine's targetContentOffset for the proposed offset `end`.
        velocity = []
        for j, w in enumerate(rest):
            if w == "--velocity": velocity = ["--velocity", rest[j + 1]]
        out = json.loads(subprocess.run([cvlayout] + rest + ["--offset", "%r,%r" % end, "--target-offset", "%r,%r" % end]
                                        + velocity + ["-f", "json", "--precision", "full"],
                                        capture_output=True, check=True).stdout)
        target = (out["targetContentOffset"]["x"], out["targetContentOffset"]["y"])
        k = (7 * (n - 1) + 5) // 10
        uk = k / (n - 1)
        legs = [(0.0, uk, start, end), (uk, 1.0, end, target)]

    def offset_at(t):
        u = min(max(t / duration, 0), 1)
        for (u0, u1, a, b) in legs:
            if u <= u1 or (u0, u1, a, b) == legs[-1]:
                e = ease((u - u0) / (u1 - u0))
                return (a[0] + (b[0] - a[0]) * e, a[1] + (b[1] - a[1]) * e)

    svg = subprocess.run([cvlayout] + words + ["-f", "svg"], capture_output=True, check=True).stdout.decode()
    svg = svg.split("\n", 1)[1] if svg.startswith("<?xml") else svg
    # One page measures every moment: set the time, wait two frames, read the boxes.
    html = ("<!doctype html><html><body style='margin:0'>" + svg + "<pre id='out'></pre><script>"
            "const s=document.querySelector('svg');s.pauseAnimations();const times=%s, all=[];"
            "function measure(i){ if(i===times.length){document.getElementById('out').textContent=JSON.stringify(all);return;}"
            " s.setCurrentTime(times[i]); setTimeout(()=>{"
            " const vb=s.viewBox.animVal, r=s.getBoundingClientRect(), kx=vb.width/r.width, ky=vb.height/r.height;"
            " const boxes={};"
            " for (const e of document.querySelectorAll('[data-index-path]')) {"
            "  let o=1, n=e; while (n && n!==s) { o*=parseFloat(getComputedStyle(n).opacity); n=n.parentNode; }"
            "  if (o===0) continue;"
            "  const b=e.getBoundingClientRect();"
            "  boxes[(e.getAttribute('data-kind')||'cell')+' '+e.getAttribute('data-index-path')]="
            "   [vb.x+(b.left-r.left)*kx, vb.y+(b.top-r.top)*ky, b.width*kx, b.height*ky]; }"
            " all.push(boxes); measure(i+1); }, 30); }"
            "measure(0);</script></body></html>") % json.dumps(times)
    with tempfile.NamedTemporaryFile("w", suffix=".html", delete=False) as f:
        f.write(html)
    dom = subprocess.run(["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=60000",
                          "--dump-dom", "file://" + f.name], capture_output=True).stdout.decode()
    os.unlink(f.name)
    measured = json.loads(dom.split("<pre id=\"out\">", 1)[1].split("</pre>", 1)[0].replace("&quot;", '"'))
    worst_all = 0.0
    for t, drawn in zip(times, measured):
        o = offset_at(t)
        layout = json.loads(subprocess.run([cvlayout] + rest + ["--offset", "%r,%r" % o, "-f", "json", "--precision", "full"],
                                           capture_output=True, check=True).stdout)
        worst, missing, count, where = 0.0, 0, 0, ""
        for e in layout["elements"]:
            if e.get("hidden") or e.get("alpha", 1) <= 0: continue
            key = (e.get("kind") or ("cell" if e["category"] == "cell" else e["category"])) + " %d:%d" % tuple(e["indexPath"])
            f = e["frame"]; a, b, c, d, tx, ty = e.get("transform", [1, 0, 0, 1, 0, 0])
            cx, cy = f["x"] + f["width"] / 2 + tx, f["y"] + f["height"] / 2 + ty
            hw = (abs(a) * f["width"] + abs(c) * f["height"]) / 2; hh = (abs(b) * f["width"] + abs(d) * f["height"]) / 2
            want = [cx - hw, cy - hh, cx + hw, cy + hh]
            got = drawn.get(key)
            if got is None: missing += 1; continue
            count += 1
            edges = [got[0], got[1], got[0] + got[2], got[1] + got[3]]
            diff = max(abs(g - w) for g, w in zip(edges, want))
            if diff > worst: worst, where = diff, key
        if len(drawn) > count: missing += len(drawn) - count  # drawn but not visible in the layout
        worst_all = max(worst_all, worst, 99 if missing else 0)
        print("t=%gs offset=(%.3f, %.3f): %d elements compared, %d unmatched, largest difference %.4f pt%s"
              % (t, o[0], o[1], count, missing, worst, " (" + where + ")" if where else ""))
    sys.exit(0 if worst_all < bound else 1)

main()
