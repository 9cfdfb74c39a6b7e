import Foundation
import LayoutCore

/// Largest dataset read, in bytes (1 GiB; ten million sizes take about 140 MB).
let maximumDatasetBytes = 1 << 30

/// A dataset longer than `limit` bytes: 65 (bad data) on the command line.
struct DatasetTooLarge: Error, Equatable {
    let limit: Int
}

/// Reads `handle` to its end in 1 MiB chunks, refusing more than `limit` bytes.
/// - Throws: `DatasetTooLarge` past `limit`; read(2)'s error (a POSIX `NSError`).
/// - Complexity: O(bytes read); memory O(min(bytes, limit)).
func readBounded(_ handle: FileHandle, limit: Int = maximumDatasetBytes) throws -> Data {
    let fd = handle.fileDescriptor
    let chunk = 1 << 20
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: chunk)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, chunk) }
        if n < 0 {
            if errno == EINTR { continue }
            throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno))
        }
        if n == 0 { return data }
        if data.count + n > limit { throw DatasetTooLarge(limit: limit) }
        data.append(contentsOf: buffer[0..<n])
    }
}
