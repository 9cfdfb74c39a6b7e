import LayoutCore
import LayoutDatasets

/// The iPhones and iPads of the last five years, phones then tablets, in release order: Apple's
/// name (`iPhone 15 Pro`) and the screen in points, portrait (`UIScreen.main.bounds.size`).
let deviceTable: [(name: String, size: Size)] = [
    ("iPhone 13 mini", 375, 812), ("iPhone 13", 390, 844), ("iPhone 13 Pro", 390, 844),
    ("iPhone 13 Pro Max", 428, 926), ("iPhone SE", 375, 667), ("iPhone 14", 390, 844),
    ("iPhone 14 Plus", 428, 926), ("iPhone 14 Pro", 393, 852), ("iPhone 14 Pro Max", 430, 932),
    ("iPhone 15", 393, 852), ("iPhone 15 Plus", 430, 932), ("iPhone 15 Pro", 393, 852),
    ("iPhone 15 Pro Max", 430, 932), ("iPhone 16", 393, 852), ("iPhone 16 Plus", 430, 932),
    ("iPhone 16 Pro", 402, 874), ("iPhone 16 Pro Max", 440, 956), ("iPhone 16e", 390, 844),
    ("iPhone 17", 402, 874), ("iPhone Air", 420, 912), ("iPhone 17 Pro", 402, 874),
    ("iPhone 17 Pro Max", 440, 956),
    ("iPad 9", 810, 1080), ("iPad 10", 820, 1180), ("iPad 11", 820, 1180),
    ("iPad mini", 744, 1133), ("iPad Air", 820, 1180), ("iPad Air 11", 820, 1180), ("iPad Air 13", 1024, 1366),
    ("iPad Pro 11", 834, 1194), ("iPad Pro 12.9", 1024, 1366), ("iPad Pro 11 M4", 834, 1210),
    ("iPad Pro 13", 1032, 1376),
].map { ($0.0, Size(width: $0.1, height: $0.2)) }

/// A device name as it is compared: lower case, `-` and `_` as spaces, runs of spaces as one.
private func normalizedDeviceName(_ name: String) -> String {
    String(name.lowercased().map { $0 == "-" || $0 == "_" ? " " : $0 })
        .split(separator: " ").joined(separator: " ")
}

/// The bounds `--device NAME` sets: the screen, portrait, or swapped for `NAME-landscape`; `nil`
/// for a name the table does not hold.
func deviceBounds(_ name: String) -> Size? {
    var key = normalizedDeviceName(name)
    var landscape = false
    for suffix in [" landscape", " portrait"] where key.hasSuffix(suffix) {
        landscape = suffix == " landscape"
        key.removeLast(suffix.count)
    }
    guard let device = deviceTable.first(where: { normalizedDeviceName($0.name) == key }) else { return nil }
    return landscape ? Size(width: device.size.height, height: device.size.width) : device.size
}

func nearestDeviceName(_ name: String) -> String? {
    let names = deviceTable.map(\.name)
    guard let near = nearest(normalizedDeviceName(name), among: names.map(normalizedDeviceName)) else { return nil }
    return names.first { normalizedDeviceName($0) == near }
}

/// `cvlayout devices`: the table, a device a line (name, then portrait width × height in points).
let devicesCommand = SubcommandDescriptor.withoutArguments(
    "devices", summary: "list the devices --device knows, with their sizes in points", help: """
        USAGE: cvlayout devices

        Lists the devices --device knows: the name, then the screen's width × height in points,
        portrait. Names are case-insensitive, '-' may stand for a space ('--device iphone-15-pro'),
        and NAME-landscape swaps width and height. --width and --height given with --device win.

        """
) {
    columns(deviceTable.map {
        ($0.name, "\(NumberPrecision.full.text($0.size.width)) × \(NumberPrecision.full.text($0.size.height))")
    })
}
