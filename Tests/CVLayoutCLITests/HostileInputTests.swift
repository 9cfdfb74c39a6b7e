import Foundation
import Testing
@testable import CVLayoutCLI

/// Regression tests for hostile inputs found by fuzzing and by hand (see Fuzz/): each pins
/// the exit status, a one-line message, an empty stdout, and speed where a hang was possible.
struct HostileInputTests {
    /// Runs with `stdin` as the dataset `-` and checks the SPEC section 3 shape of an error.
    func refused(_ arguments: [String], stdin: Data = Data(), status: Int32, message: String,
                 sourceLocation: SourceLocation = #_sourceLocation) {
        let start = Date()
        let result = run(arguments: arguments, stdin: { stdin })
        #expect(Date().timeIntervalSince(start) < 5, "took too long", sourceLocation: sourceLocation)
        #expect(result.status == status, "\(result.stderr.prefix(300))", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(result.stderr.contains(message), "\(result.stderr.prefix(300))", sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.first?.hasPrefix("cvlayout: error: ") == true, sourceLocation: sourceLocation)
        #expect(lines.count == (status == 64 ? 2 : 1), "\(result.stderr.prefix(300))", sourceLocation: sourceLocation)
        #expect(result.stderr.utf8.count < 1000, "message of \(result.stderr.utf8.count) bytes", sourceLocation: sourceLocation)
    }

    // MARK: - Long strings and keys (a 100 MB string, a 100 MB key in "options")

    @Test func aHundredMegabyteStringIsRefusedFast() {
        let data = Data("{\"heights\": \"".utf8) + Data(repeating: UInt8(ascii: "x"), count: 100_000_000) + Data("\"}".utf8)
        refused(["waterfall", "-"], stdin: data, status: 65,
                message: "<stdin>:1:13: invalid JSON: string longer than 65536 bytes")
    }

    @Test func aLongKeyIsRefusedBeforeItIsEchoedOrCompared() {
        // Before the fix: a 1 MB "unknown option" message, and an edit distance of 1 MB × every
        // option name (43 s for 100 MB).
        let key = String(repeating: "k", count: 1_000_000)
        refused(["waterfall", "-"], stdin: Data("{\"options\": {\"\(key)\": 1}, \"heights\": [1]}".utf8), status: 65,
                message: "<stdin>:1:14: invalid JSON: string longer than 65536 bytes")
        let longKey = String(repeating: "k", count: 300)
        refused(["waterfall", "-"], stdin: Data("{\"\(longKey)\": 1}".utf8), status: 65,
                message: "<stdin>:1:2: invalid JSON: key longer than 256 bytes")
        // 256 bytes is still a key, reported as unknown with its name.
        let maxKey = String(repeating: "k", count: 256)
        refused(["waterfall", "-"], stdin: Data("{\"\(maxKey)\": 1}".utf8), status: 65,
                message: "<stdin>: \(maxKey): unknown key")
    }

    @Test func aStringAtTheLimitIsStillAString() {
        let insets = "\"" + String(repeating: " ", count: 65_536) + "\""
        refused(["waterfall", "-"], stdin: Data("{\"options\": {\"insets\": \(insets)}, \"heights\": [1]}".utf8),
                status: 65, message: "<stdin>: options.insets: expected T,L,B,R or one number, got \"      ")
    }

    @Test func deepNestingIsRefusedWithoutRecursingIntoIt() {
        refused(["ring", "-"], stdin: Data(repeating: UInt8(ascii: "["), count: 100_000), status: 65,
                message: "<stdin>:1:257: invalid JSON: nesting deeper than 256 levels")
        refused(["waterfall", "-"], stdin: Data(String(repeating: "{\"sections\":", count: 300).utf8), status: 65,
                message: "nesting deeper than 256 levels")
    }

    // MARK: - Values that would break the one-line message

    @Test func controlCharactersAndHugeValuesInMessagesStayOnOneLine() {
        refused(["waterfall", "--columns", "3\n4"], status: 64, message: "--columns: expected an integer, got '3?4'")
        refused(["water\nfall"], status: 64, message: "unknown engine 'water?fall'; did you mean 'waterfall'?")
        refused(["waterfall", "--insets", String(repeating: "9", count: 100_000) + "x"], status: 64,
                message: "--insets: expected T,L,B,R or one number, got '999999999999999999999999999999999999999999999999999999999999…'")
        refused(["waterfall", "--" + String(repeating: "c", count: 100_000)], status: 64, message: "unknown option '--ccccc")
        refused(["waterfall", "-"], stdin: Data("{\"options\": {\"order\": \"a\\nb\"}, \"heights\": [1]}".utf8), status: 65,
                message: "<stdin>: options.order: expected one of shortest-first, left-to-right, right-to-left, got \"a?b\"")
        refused(["waterfall", "no\rsuch.json"], status: 66, message: "no?such.json: cannot open: no such file")
    }

    // MARK: - Sizes that exhaust memory or time

    @Test func theReadLimitRefusesEndlessInput() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let reader = FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true)
        let writer = FileHandle(fileDescriptor: descriptors[1], closeOnDealloc: true)
        let feeder = Thread {
            // More than the limit below, then the end of the input.
            try? writer.write(contentsOf: Data(repeating: 0x20, count: 3 << 20))
            try? writer.close()
        }
        feeder.start()
        #expect(throws: DatasetTooLarge(limit: 1 << 20)) { try readBounded(reader, limit: 1 << 20) }
        #expect(CLIProblem.tooLarge("<stdin>", limit: maximumDatasetBytes).message
                == "<stdin>: larger than 1073741824 bytes (a dataset holds at most 10000000 elements)")
        // Drain so the feeder finishes.
        _ = try? reader.readToEnd()
    }

    /// `--check /dev/zero` and `diff /dev/zero X` read until the system killed them (found by
    /// a tester): layout files have the datasets' read limit, and passing it is diff's trouble.
    @Test func layoutFilesHaveTheReadLimitToo() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cvlayout-limit-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(repeating: 0x20, count: 3 << 20).write(to: url)
        #expect(throws: CLIError.status(2, "\(url.path): larger than \(1 << 20) bytes (the most a layout file may hold)")) {
            try readLayoutData(url.path, stdin: { Data() }, limit: 1 << 20)
        }
        let endless = run(arguments: ["diff", "-", url.path], stdin: { throw DatasetTooLarge(limit: maximumDatasetBytes) })
        #expect(endless.status == 2 && endless.stdout.isEmpty)
        #expect(endless.stderr == "cvlayout: error: <stdin>: larger than 1073741824 bytes (the most a layout file may hold)\n")
    }

    @Test func theReadLimitPassesEverythingBelowIt() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cvlayout-read-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        let bytes = Data((0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: url)
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        #expect(try readBounded(handle, limit: 2 << 20) == bytes)
    }

    @Test func hugeCountsAreRefusedBeforeAllocating() {
        refused(["waterfall", "-"], stdin: Data("{\"count\": 1e308}".utf8), status: 65, message: "count")
        refused(["ring", "-"], stdin: Data("[1e15]".utf8), status: 65, message: "[0]: more than 10000000 elements")
        refused(["flow", "-"], stdin: Data("{\"sections\": [{\"count\": 6000000}, {\"count\": 6000000}]}".utf8),
                status: 65, message: "more than 10000000 elements")
        refused(["stack", "--count", "1e308"], status: 65, message: "--count: expected an integer of magnitude below 2^53, got '1e308'")  // issue 28
        refused(["circle", "--count", "99999999999"], status: 65, message: "--count: expected an integer from 0 to 10000000")
    }

    @Test func aHugeColumnCountLaysOutInstantly() throws {
        let start = Date()
        let result = run(arguments: ["waterfall", "--columns", "1e15", "--column-spacing", "0", "--count", "3",
                                     "--precision", "full", "-f", "csv"])
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdoutText.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.map { String($0[4]) } == ["0", "0.00000000000039", "0.00000000000078"])
    }

    // MARK: - Datasets that are not plain files

    @Test func aByteOrderMarkIsSkipped() {
        let result = run(arguments: ["ring", "-f", "csv", "-"], stdin: { Data([0xEF, 0xBB, 0xBF]) + Data("[1, 6]".utf8) })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText.split(separator: "\n").count == 8)
    }

    @Test func aFIFOIsReadLikeAFileAndItsBadDataIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cvlayout-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (content, status) in [("[1, 6, 12]", Int32(0)), ("[1, 6,", Int32(65))] {
            let fifo = directory.appendingPathComponent("rings-\(status).json").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let writer = Thread {
                guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
                try? handle.write(contentsOf: Data(content.utf8))
                try? handle.close()
            }
            writer.start()
            let result = run(arguments: ["ring", "-f", "csv", fifo])
            #expect(result.status == status, "\(result.stderr)")
            if status == 0 {
                #expect(result.stdoutText.split(separator: "\n").count == 20)
            } else {
                #expect(result.stdout.isEmpty && result.stderr == "cvlayout: error: \(fifo):1:7: invalid JSON: unexpected end of input: expected a value\n")
            }
        }
    }

    // MARK: - No lost output

    @Test func everyKindOfFailureLeavesTheOldFileAndNoTemporaryFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cvlayout-keep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("layout.json").path
        let old = Data("previous layout\n".utf8)
        try old.write(to: URL(fileURLWithPath: output))
        let failures: [([String], Data, Int32)] = [
            (["waterfall", "--colums", "2", "-o", output], Data(), 64),
            (["waterfall", "-o", output, "-"], Data("[1, -3]".utf8), 65),
            (["ring", "-o", output, "-"], Data(repeating: UInt8(ascii: "["), count: 1000), 65),
            (["flow", "-o", output, directory.appendingPathComponent("missing.json").path], Data(), 66),
            (["circle", "--item", "0:99", "-o", output], Data(), 64),
            (["line", "--width", "1e999", "-o", output], Data(), 65),
            (["carousel", "--item-size", "1e308,1e308", "-o", output], Data(), 65),
            (["stack", "-o", output, "-"], Data("{\"heights\": \"".utf8) + Data(repeating: 0x41, count: 70_000), 65),
        ]
        for (arguments, stdin, status) in failures {
            let result = run(arguments: arguments, stdin: { stdin })
            #expect(result.status == status, "\(arguments.prefix(3)): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == old, "\(arguments.prefix(3))")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["layout.json"])
        }
        // A write error in the middle of the output: /dev/full behind the output name.
        let full = directory.appendingPathComponent("full.json").path
        try FileManager.default.createSymbolicLink(atPath: full, withDestinationPath: "/dev/full")
        let result = run(arguments: ["waterfall", "--count", "5000", "-o", full])
        #expect(result.status == 74 && result.stderr.hasPrefix("cvlayout: error: cannot write"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["full.json", "layout.json"])
        // And success replaces the file whole.
        let ok = run(arguments: ["ring", "-o", output])
        #expect(ok.status == 0 && ok.stdout.isEmpty)
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("{\"engine\":\"ring\""))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["full.json", "layout.json"])
    }
}
