#!/usr/bin/env node
// Cross-check of `cvlayout justified --compat flickr` against flickr/justified-layout itself.
//
//   node Scripts/justified-flickr-check.js PATH_TO_JUSTIFIED_LAYOUT [CONFIGURATIONS [SEED]] [--bin CVLAYOUT]
//
// PATH_TO_JUSTIFIED_LAYOUT is a checkout or npm install of the library (the directory whose
// package.json says 4.1.0; `npm pack justified-layout@4.1.0` gives one). None of its code is in
// this repository: the script loads it from that path. It runs the library's published test
// configurations and CONFIGURATIONS (default 3000) random ones — random aspect ratios or sizes,
// widths, row heights, tolerances, spacing, padding, maxNumRows, showWidows,
// fullWidthBreakoutRowCadence, forceAspectRatio and widowLayoutStyle — through both, and
// compares every box (left, top, width, height), their number, containerHeight with
// contentSize.height and widowCount with stats.widows, to 1e-9. Exit status 1 on any
// disagreement, with the first few printed.
'use strict';
const { execFileSync } = require('child_process');
const path = require('path');

const args = process.argv.slice(2);
let bin = path.join(__dirname, '..', '.build', 'debug', 'cvlayout');
const binAt = args.indexOf('--bin');
if (binAt >= 0) { bin = args[binAt + 1]; args.splice(binAt, 2); }
if (args.length < 1) {
  console.error('usage: justified-flickr-check.js PATH_TO_JUSTIFIED_LAYOUT [CONFIGURATIONS [SEED]] [--bin CVLAYOUT]');
  process.exit(64);
}
const library = path.resolve(args[0]);
const justifiedLayout = require(library);
const version = require(path.join(library, 'package.json')).version;
const count = Number(args[1] || 3000);
let seed = Number(args[2] || 1) >>> 0;

// mulberry32: a small seeded generator, so that a failing configuration can be reproduced.
function random() {
  seed = (seed + 0x6D2B79F5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (list) => list[Math.floor(random() * list.length)];
const between = (a, b) => a + (b - a) * random();
const maybe = (p) => random() < p;

function randomConfiguration() {
  const n = pick([0, 1, 2, 3, 5, 8, 13, 30, 60, 150]);
  const integral = maybe(0.3);
  const ratio = () => (integral ? pick([0.5, 0.75, 1, 1.5, 2, 3, 5, 0.25]) : pick([between(0.3, 3), between(0.5, 2.5), between(0.05, 8)]));
  const useSizes = maybe(0.2);
  const input = [];
  for (let i = 0; i < n; i++) {
    if (useSizes) input.push({ width: 1 + Math.floor(random() * 4000), height: 1 + Math.floor(random() * 4000) });
    else input.push(ratio());
  }
  const config = {};
  config.containerWidth = pick([1060, 390, 200, 800, Math.round(between(100, 2000)), between(150, 1500)]);
  const maxPad = config.containerWidth / 4;
  const pad = () => pick([0, 10, 5, Math.round(between(0, maxPad)), between(0, maxPad)]);
  if (maybe(0.3)) config.containerPadding = { top: pad(), left: pad(), bottom: pad(), right: pad() };
  else if (maybe(0.6)) config.containerPadding = pad();
  const space = () => pick([0, 10, 4, Math.round(between(0, 40)), between(0, 30)]);
  if (maybe(0.3)) config.boxSpacing = { horizontal: space(), vertical: space() };
  else if (maybe(0.6)) config.boxSpacing = space();
  if (maybe(0.8)) config.targetRowHeight = pick([320, 100, 250, Math.round(between(30, 600)), between(20, 500)]);
  if (maybe(0.7)) config.targetRowHeightTolerance = pick([0, 0.25, 0.1, 0.5, between(0, 0.9)]);
  if (maybe(0.2)) config.maxNumRows = 1 + Math.floor(random() * 6);
  if (maybe(0.15)) config.showWidows = false;
  if (maybe(0.25)) config.fullWidthBreakoutRowCadence = 1 + Math.floor(random() * 5);
  if (maybe(0.1)) config.forceAspectRatio = pick([1, 1.5, 0.75, between(0.2, 4)]);
  if (maybe(0.5)) config.widowLayoutStyle = pick(['left', 'justify', 'center']);
  return { input, config };
}

// The library's published test-suite configurations (test/test.js).
const published = [
  [[1, 2], { containerWidth: 200, targetRowHeight: 100 }],
  [[1, 2, 1], { containerWidth: 200, targetRowHeight: 100, maxNumRows: 2 }],
  [[5], {}],
  [[1, 4, 1.1], { containerWidth: 1000, targetRowHeight: 250 }],
  [[{ width: 400, height: 400 }, { width: 500, height: 500 }, { width: 600, height: 600 }, { width: 700, height: 700 }], {}],
  [[1, 1, 1, 1], {}],
  [[1, 1, 1, 1], { containerWidth: 400 }],
  [[1], { containerPadding: 20 }],
  [[1], { containerPadding: { top: 50, left: 5, bottom: 10, right: 10 } }],
  [[1, 1, 1, 1], { boxSpacing: 40 }],
  [[1, 1, 1, 1], { boxSpacing: { horizontal: 40, vertical: 5 } }],
  [[1, 1, 1, 1], { targetRowHeight: 255, targetRowHeightTolerance: 0 }],
  [[1, 1, 1], { targetRowHeightTolerance: 0 }],
  [[1, 1, 1, 1, 1], { maxNumRows: 1 }],
  [[2, 2, 2, 2], { forceAspectRatio: 1 }],
  [[1, 1, 1, 1], { showWidows: false }],
  [[1, 1, 1, 1, 2, 2, 2, 2], { fullWidthBreakoutRowCadence: 3 }],
  [[1, 1, 1, 1, 1, 1, 1, 1], { fullWidthBreakoutRowCadence: 3 }],
  [[1, 1, 1], {}],
  [[1, 1, 1, 1, 0.5], {}],
  [[1, 1, 1, 1], { widowLayoutStyle: 'left' }],
  [[1, 1, 1, 1], { containerWidth: 1060, boxSpacing: 10, widowLayoutStyle: 'center' }],
  [[1, 1, 1, 1, 1], { containerWidth: 1060, boxSpacing: 10, widowLayoutStyle: 'center' }],
  [[1.6, 1, 2.3, 1.2, 0.1], { containerWidth: 1060, boxSpacing: 10, widowLayoutStyle: 'center' }],
  [[1, 1, 1, 2.5], { containerWidth: 880, boxSpacing: 10, widowLayoutStyle: 'justify' }],
  [[1], { containerPadding: 100 }],
  [[1, 1, 1], { containerPadding: 0, targetRowHeightTolerance: 0 }],
];

// The cvlayout command line for a library configuration (its defaults are Flickr's but the width).
function commandLine(config) {
  const a = ['justified', '--compat', 'flickr', '--precision', 'full', '--stats', '--width', String(config.containerWidth ?? 1060)];
  const p = config.containerPadding ?? 10;
  a.push('--insets', typeof p === 'object' ? [p.top, p.left, p.bottom, p.right].join(',') : String(p));
  const s = config.boxSpacing ?? 10;
  a.push('--spacing', typeof s === 'object' ? `${s.horizontal},${s.vertical}` : String(s));
  if (config.targetRowHeight !== undefined) a.push('--row-height', String(config.targetRowHeight));
  if (config.targetRowHeightTolerance !== undefined) a.push('--row-height-tolerance', String(config.targetRowHeightTolerance));
  if (config.maxNumRows !== undefined) a.push('--max-rows', String(config.maxNumRows));
  if (config.showWidows === false) a.push('--hide-widows');
  if (config.fullWidthBreakoutRowCadence) a.push('--breakout-cadence', String(config.fullWidthBreakoutRowCadence));
  if (config.forceAspectRatio) a.push('--force-aspect-ratio', String(config.forceAspectRatio));
  if (config.widowLayoutStyle) a.push('--widow-style', config.widowLayoutStyle);
  a.push('-');
  return a;
}

function dataset(input) {
  return JSON.stringify(input.map((item) => (typeof item === 'object' ? [item.width, item.height] : item)));
}

const tolerance = 1e-9;
let failures = 0, compared = 0, boxes = 0, largest = 0;
function check(input, config, label) {
  // The library mutates nothing we reuse: give it copies.
  const expected = justifiedLayout(JSON.parse(JSON.stringify(input)), JSON.parse(JSON.stringify(config)));
  const argv = commandLine(config);
  let actual;
  try {
    actual = JSON.parse(execFileSync(bin, argv, { input: dataset(input), maxBuffer: 1 << 28 }).toString());
  } catch (error) {
    return fail(label, input, config, argv, `cvlayout failed: ${error.stderr || error.message}`);
  }
  const cells = actual.elements.filter((e) => e.category === 'cell');
  compared += 1;
  if (cells.length !== expected.boxes.length) {
    return fail(label, input, config, argv, `${cells.length} cells, the library ${expected.boxes.length} boxes`);
  }
  for (let i = 0; i < cells.length; i++) {
    const f = cells[i].frame, b = expected.boxes[i];
    for (const [mine, theirs, name] of [[f.x, b.left, 'left'], [f.y, b.top, 'top'], [f.width, b.width, 'width'], [f.height, b.height, 'height']]) {
      const d = Math.abs(mine - theirs);
      largest = Math.max(largest, d);
      if (!(d <= tolerance)) return fail(label, input, config, argv, `box ${i} ${name}: cvlayout ${mine}, the library ${theirs}`);
    }
  }
  boxes += cells.length;
  const height = Math.max(expected.containerHeight, 0);
  if (!(Math.abs(actual.contentSize.height - height) <= tolerance)) {
    return fail(label, input, config, argv, `contentSize.height ${actual.contentSize.height}, containerHeight ${expected.containerHeight}`);
  }
  if (actual.stats.widows !== expected.widowCount) {
    return fail(label, input, config, argv, `stats.widows ${actual.stats.widows}, widowCount ${expected.widowCount}`);
  }
}
function fail(label, input, config, argv, why) {
  failures += 1;
  if (failures <= 5) {
    console.log(`DISAGREE ${label}: ${why}\n  input ${JSON.stringify(input)}\n  config ${JSON.stringify(config)}\n  cvlayout ${argv.join(' ')}`);
  }
}

published.forEach(([input, config], i) => check(input, config, `published case ${i + 1}`));
const publishedCompared = compared;
for (let k = 0; k < count; k++) {
  const { input, config } = randomConfiguration();
  check(input, config, `random configuration ${k + 1}`);
}
console.log(`justified-layout ${version} at ${library}: ${publishedCompared} published and ${compared - publishedCompared} random configurations, ` +
  `${boxes} boxes; ${failures} disagreements; largest difference ${largest}`);
process.exit(failures ? 1 : 0);
