// FastText: the speed machinery, behind one door (imported by LayoutDatasets, LayoutWriters,
// LayoutComparison and the tests); everything `package` but `OutputBuffer` and `StreamedElements`.
// `OutputBuffer` and `ByteCursor` write bytes; `CachedNumber`, `RecentNumber`, `FrameText`,
// `SVGFrameText`, `CountingDigits` and `DigitTable` keep recent texts to copy; `NumberFormat` writes
// the reference's numbers, `JSONNumber` reads them; `appendInParallel`, `BlockPipeline` and
// `runConcurrently` format on every core, in order; `reserveLargeCapacity` asks for huge pages.
// It assumes layouts validated before writing (no NaN), room reserved before a cursor writes
// (`OutputBuffer.elementBound` an element), and pipeline work that reads only shared state.
// Tests proving it equal to the plain code: CONTRIBUTING.md, "Fast paths".
