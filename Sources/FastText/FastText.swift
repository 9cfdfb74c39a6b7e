// FastText: the speed machinery, behind one door. Only the targets that read and write bytes
// import it (LayoutDatasets, LayoutWriters, LayoutComparison, and the tests); LayoutCore, the
// command line and the executables never do. Everything here is `package` but `OutputBuffer`
// (a parameter of the writers' entry points; only this package can make one) and
// `StreamedElements`.
//
// What it offers:
// - `OutputBuffer`: bytes gathered and handed to a sink in 1 MiB chunks; `ByteCursor` writes
//   one element into reserved room without checks; `CachedNumber`, `RecentNumber`,
//   `FrameText`/`SVGFrameText` (keyed by `FrameKey`), `CountingDigits`, `DigitTable`: the
//   tables of recent number and frame texts the writers' element loops copy from.
// - `NumberFormat`: the reference's number rule (`--precision`, `NumberPrecision` in
//   LayoutCore) written straight into bytes; `string(_:precision:)` for the few texts outside
//   a buffer.
// - `JSONNumber`: JSON number text to the correctly rounded Double (the dataset scanner).
// - `appendInParallel`, `BlockPipeline`, `appendStreamed`, `runConcurrently`: formatting on
//   every core, in order; `Array.reserveLargeCapacity`: huge pages for large arrays.
//
// What it assumes: layouts are validated before they are written (no NaN reaches a buffer);
// a cursor's caller reserved room for what it writes (`OutputBuffer.elementBound` per element);
// work handed to the pipeline reads only shared state.
//
// Which tests prove it equal to the plain code: CONTRIBUTING.md, "Fast paths" (the table):
// `NumberFormattingTests`, `PlainWriterTests` (against `PlainNumberText`), and
// `PlainWriterDifferentialTests`, `StreamingTests` (against the plain writers, byte for byte).
