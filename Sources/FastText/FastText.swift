// FastText: the speed machinery, behind one door. Only LayoutDatasets, LayoutWriters,
// LayoutComparison and the tests import it. Everything is `package` but `OutputBuffer` and
// `StreamedElements`.
//
// - `OutputBuffer`: bytes handed to a sink in 1 MiB chunks; `ByteCursor` writes one element
//   into reserved room; `CachedNumber`, `RecentNumber`, `FrameText`/`SVGFrameText`,
//   `CountingDigits`, `DigitTable`: tables of recent texts the element loops copy from.
// - `NumberFormat`: the reference's number rule (`NumberPrecision`) written into bytes.
// - `JSONNumber`: JSON number text to the correctly rounded Double.
// - `appendInParallel`, `BlockPipeline`, `runConcurrently`: formatting on every core, in
//   order; `Array.reserveLargeCapacity`: huge pages for large arrays.
//
// It assumes layouts validated before writing (no NaN), room reserved before a cursor writes
// (`OutputBuffer.elementBound` per element), and pipeline work that reads only shared state.
// Tests proving it equal to the plain code: CONTRIBUTING.md, "Fast paths".
