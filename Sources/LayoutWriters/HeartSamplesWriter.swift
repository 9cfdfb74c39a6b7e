import LayoutCore
import FastText

// The heart path sampled evenly by arc length (`cvlayout ring --heart-samples N`), for
// consumers that cannot evaluate Béziers: a JSON key after "heartPath", or a CSV table.

/// Appends `,\n"heartSamples":[…]` to a layout's JSON object: one sample per line,
/// `{"t":0,"x":214,"y":463,"angle":-90}`, keys in this order.
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

/// Writes the samples as CSV: the header row `t,x,y,angle`, then one row per sample (LF line
/// endings, numbers at the output precision). This replaces the element table when
/// `--heart-samples` is given; a layout without a heart path gives the header row alone.
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
