import LayoutCore
import FastText

/// Appends `,\n"heartSamples":[…]` (`--heart-samples`), one sample a line,
/// `{"t":0,"x":214,"y":463,"angle":-90}`.
/// - Complexity: O(samples).
func appendHeartSamples(_ samples: [PathSample], to out: OutputBuffer) {
    out.append(",\n\"heartSamples\":[")
    for (k, sample) in samples.enumerated() {
        out.append(k == 0 ? "\n{\"t\":" : ",\n{\"t\":")
        out.append(number: sample.t)
        out.append(",\"x\":")
        out.append(number: sample.point.x)
        out.append(",\"y\":")
        out.append(number: sample.point.y)
        out.append(",\"angle\":")
        out.append(number: sample.angle)
        out.append(byte: UInt8(ascii: "}"))
    }
    out.append(samples.isEmpty ? "]" : "\n]")
}

/// Writes the samples as CSV, in place of the elements: `t,x,y,angle`, then a row per sample.
/// - Complexity: O(samples).
func writeHeartSamples(_ samples: [PathSample], to out: OutputBuffer) throws {
    out.append("t,x,y,angle\n")
    for sample in samples {
        out.append(number: sample.t)
        out.append(byte: UInt8(ascii: ","))
        out.append(number: sample.point.x)
        out.append(byte: UInt8(ascii: ","))
        out.append(number: sample.point.y)
        out.append(byte: UInt8(ascii: ","))
        out.append(number: sample.angle)
        out.append(byte: 0x0A)
        try out.flushIfFull()
    }
}
