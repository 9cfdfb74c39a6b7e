#!/usr/bin/env python3
# Cross-check of `cvlayout grid` against a second, independent implementation of the rules in
# docs/REFERENCE.md (grid), written here in Python from the text alone: random GridItem
# combinations (fixed, flexible, adaptive, capped or not, with their spacings and alignments),
# random widths, padding, sections with headers and footers, pinned headers and footers at
# random offsets; every frame and the content size must agree to 0.001 pt.
#
#   python3 Scripts/grid-rules-check.py [CVLAYOUT [CASES]]     (defaults: .build/debug/cvlayout, 400)
import json, random, subprocess, sys, math
BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/cvlayout"
N = int(sys.argv[2]) if len(sys.argv) > 2 else 400
INF = float('inf')
def frac(a):
    h = {'leading':0,'topLeading':0,'bottomLeading':0,'trailing':1,'topTrailing':1,'bottomTrailing':1}.get(a,0.5)
    v = {'top':0,'topLeading':0,'topTrailing':0,'bottom':1,'bottomLeading':1,'bottomTrailing':1}.get(a,0.5)
    return h, v
def sizing(cols, P):
    fixed = sum(c['w'] for c in cols if c['k']=='fixed') + sum(c['s'] for c in cols[:-1])
    rem = P - fixed; uns = sum(1 for c in cols if c['k']!='fixed')
    out = []
    for c in cols:
        if c['k']=='fixed': w = c['w']; out.append((w, [(0, w)]))
        elif c['k']=='flexible':
            w = min(max(rem/uns, c['min']), c['max']); rem -= w; uns -= 1; out.append((w, [(0, w)]))
        else:
            w = max(0, rem/uns); rem -= w; uns -= 1
            s = c['s']; n = max(1, math.floor((w+s)/(c['min']+s)))
            sw = min((w-(n-1)*s)/n, c['max'])
            out.append((w, [(k*(sw+s), sw) for k in range(int(min(n, 1000)))]))
    total = sum(w for w,_ in out) + sum(c['s'] for c in cols[:-1])
    return out, total
def layout(d, W, H, off, ih):
    cols = d['cols']; L,T,R,B = d['pad']['l'], d['pad']['t'], d['pad']['r'], d['pad']['b']
    P = W - L - R
    s1, t1 = sizing(cols, P); s2, _ = sizing(cols, t1)
    origin = L + (P - t1)/2
    flat = []; x = origin
    for c,(w, subs) in zip(cols, s2):
        fh, fv = frac(c['a']) if c['a'] else ({'leading':0,'center':0.5,'trailing':1}[d['align']], 0.5)
        for (dx, sw) in subs: flat.append((x+dx, sw, fh, fv))
        x += w + c['s']
    n = len(flat)
    els = []; v = T; placed = False
    def nxt():
        nonlocal v, placed
        if placed: v += d['spacing']
        placed = True
        return v
    for si, sec in enumerate(d['sections']):
        items = sec['items']
        hv = None
        if sec['header'] > 0: hv = nxt(); v = hv + sec['header']
        rows = [items[i:i+n] for i in range(0, len(items), n)]
        rowh = [max(it[1] for it in r) for r in rows]
        rv = None
        if items:
            rv = nxt(); v = rv + sum(rowh) + d['spacing']*(len(rows)-1)
        fv_ = None
        if sec['footer'] > 0: fv_ = nxt(); v = fv_ + sec['footer']
        start = hv if hv is not None else rv if rv is not None else fv_ if fv_ is not None else v
        end = v
        if hv is not None:
            y = hv
            if d['pinH']: y = min(max(off, hv), end - sec['header'])
            els.append([origin, y, t1, sec['header']])
        if rv is not None:
            y = rv
            for r, h in zip(rows, rowh):
                for c, it in enumerate(r):
                    cx, cw, fh, fvv = flat[c]
                    w = it[0] if it[0] is not None else cw
                    els.append([cx + (cw - w)*fh, y + (h - it[1])*fvv, w, it[1]])
                y += h + d['spacing']
        if fv_ is not None:
            y = fv_
            if d['pinF']: y = max(min(off + H - sec['footer'], fv_), start)
            els.append([origin, y, t1, sec['footer']])
    cw = max(W, t1 + L + R); ch = v + B
    return els, (cw, ch)
ALIGNS = ['center','leading','trailing','top','bottom','topLeading','topTrailing','bottomLeading','bottomTrailing']
bad = 0
for case in range(N):
    r = random.Random(case)
    cols = []
    for _ in range(r.randint(1,4)):
        k = r.choice(['fixed','flexible','adaptive'])
        c = {'k':k, 's': r.choice([8, 0, r.randint(0,15)]), 'a': r.choice([None, None] + ALIGNS)}
        j = {}
        if k=='fixed': c['w'] = r.randint(0,150); j['fixed'] = c['w']
        elif k=='flexible':
            c['min'] = r.choice([10, r.randint(0,200)]); c['max'] = r.choice([INF, c['min'] + r.randint(0,150)])
            j['flexible'] = {'minimum': c['min']} if c['max']==INF else {'minimum': c['min'], 'maximum': c['max']}
        else:
            c['min'] = r.randint(1,150); c['max'] = r.choice([INF, c['min'] + r.randint(0,80)])
            j['adaptive'] = {'minimum': c['min']} if c['max']==INF else {'minimum': c['min'], 'maximum': c['max']}
        j['spacing'] = c['s']
        if c['a']: j['alignment'] = c['a']
        c['json'] = j; cols.append(c)
    d = {'cols': cols, 'spacing': r.randint(0,12), 'align': r.choice(['leading','center','trailing']),
         'pinH': r.random()<0.5, 'pinF': r.random()<0.5,
         'pad': {'t': r.randint(0,20), 'l': r.randint(0,20), 'b': r.randint(0,20), 'r': r.randint(0,20)}}
    ih = r.randint(0, 120)
    secs = []; jsecs = []
    for _ in range(r.randint(1,3)):
        items = []; jitems = []
        cnt = r.randint(0, 15); use_count = r.random() < 0.3
        for _ in range(cnt):
            if use_count: items.append((None, ih))
            elif r.random() < 0.5: h = r.randint(0,150); items.append((None, h)); jitems.append(h)
            else: w, h = r.randint(1,200), r.randint(0,150); items.append((w, h)); jitems.append([w, h])
        sec = {'items': items, 'header': r.choice([0,0,30,44]), 'footer': r.choice([0,0,20])}
        secs.append(sec)
        js = {'header': sec['header'], 'footer': sec['footer']}
        if use_count: js['count'] = cnt
        else: js['items'] = jitems
        jsecs.append(js)
    d['sections'] = secs
    W = r.choice([r.randint(50, 800), r.randint(50,800) + 0.5]); H = r.randint(100, 900); off = r.randint(-50, 1500)
    desc = {'columns': [c['json'] for c in cols], 'spacing': d['spacing'], 'alignment': d['align'],
            'pinnedViews': (['sectionHeaders'] if d['pinH'] else []) + (['sectionFooters'] if d['pinF'] else []),
            'padding': [d['pad']['t'], d['pad']['l'], d['pad']['b'], d['pad']['r']], 'sections': jsecs}
    p = subprocess.run([BIN, 'grid', '--precision', 'full', '--width', str(W), '--height', str(H), '--offset', f'0,{off}',
                        '--item-height', str(ih), '-'], input=json.dumps(desc).encode(), capture_output=True)
    if p.returncode != 0: print('fail', case, p.stderr.decode()); bad += 1; continue
    out = json.loads(p.stdout)
    got = [[e['frame'][k] for k in ('x','y','width','height')] for e in out['elements']]
    exp, cs = layout(d, W, H, off, ih)
    ok = len(got) == len(exp) and all(abs(a-b) <= 0.001 for g, e in zip(got, exp) for a, b in zip(g, e))
    ok = ok and abs(out['contentSize']['width'] - cs[0]) <= 0.001 and abs(out['contentSize']['height'] - cs[1]) <= 0.001
    if not ok:
        bad += 1
        if bad < 4: print('mismatch', case, json.dumps(desc), W, H, off, ih, '\n', got[:6], '\n', exp[:6], out['contentSize'], cs)
print(f"grid rules: {N} random cases, {bad} differ")
sys.exit(1 if bad else 0)
