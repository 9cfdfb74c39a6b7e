import Foundation
import Testing

/// A few tests run the built `cvlayout` binary itself: real file descriptors, exit statuses,
/// and pipes (swift-argument-parser's `AssertExecuteCommand`).
struct ExecutableTests {
    /// The binary beside the test bundle, or where `swift build` puts it.
    static let binary: URL = builtCvlayout ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug/cvlayout")

    /// Runs a bash command line with `$CVLAYOUT` set to the binary.
    func shell(_ script: String) throws -> (stdout: String, stderr: String, status: Int32) {
        let result = try runProcess("/bin/bash", ["-c", script], environment: ["CVLAYOUT": Self.binary.path])
        return (result.stdout, result.stderr, result.status)
    }

    @Test func binaryExists() {
        #expect(FileManager.default.isExecutableFile(atPath: Self.binary.path), "\(Self.binary.path)")
    }

    @Test func versionAndHelpGoToStdout() throws {
        let version = try shell(#""$CVLAYOUT" --version"#)
        #expect(version.status == 0 && version.stdout.hasPrefix("cvlayout ") && version.stderr.isEmpty)
        let help = try shell(#""$CVLAYOUT" ring --help"#)
        #expect(help.status == 0 && help.stdout.contains("--heart-from S:I"))
    }

    @Test func usageErrorsGo64ToStderrOnly() throws {
        let result = try shell(#""$CVLAYOUT" waterfall --colums 3"#)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "cvlayout: error: unknown option '--colums'; did you mean '--columns'?\nRun 'cvlayout waterfall --help' for usage.\n")
    }

    @Test func stdinDatasetAndPipes() throws {
        let result = try shell(#"echo '[1, 6, 12]' | "$CVLAYOUT" ring -f csv - | wc -l"#)
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "20")
    }

    /// With no DATASET and no --count, a pipe, a FIFO or a regular file on stdin is the
    /// dataset (empty: the embedded data); /dev/null, a closed stdin and a terminal mean the
    /// embedded data; --count never reads stdin.
    @Test func standardInputIsTheDatasetWhenNoneIsNamed() throws {
        let result = try shell(#"""
            dir=$(mktemp -d) && echo '[1, 6]' > "$dir/r.json" && mkfifo "$dir/fifo"
            count() { "$CVLAYOUT" ring -f csv "$@" | wc -l | tr -d ' '; }
            echo "pipe $(cat "$dir/r.json" | count)"
            echo "file $(count < "$dir/r.json")"
            cat "$dir/r.json" > "$dir/fifo" & echo "fifo $(count < "$dir/fifo")"; wait
            echo "empty $(printf '' | count) $(printf ' \n' | count)"
            echo "null $(count < /dev/null) closed $(count <&-)"
            echo "count $(cat "$dir/r.json" | count --count 1)"
            echo "dash $(cat "$dir/r.json" | count -)"
            echo "tty $(script -qec "\"$CVLAYOUT\" ring -f csv" /dev/null < /dev/null | wc -l | tr -d ' ')"
            echo '[1, 6]' | "$CVLAYOUT" transition --from ring --to 'ring --radius 80' -f csv | wc -l | tr -d ' '
            echo '{"heights": "x"}' | "$CVLAYOUT" waterfall; echo "bad $?"
            while read -r n; do echo "loop $n $("$CVLAYOUT" ring -f csv < /dev/null | wc -l | tr -d ' ')"; done <<< $'a\nb'
            rm -rf "$dir"
            """#)
        #expect(result.stdout == """
            pipe 8
            file 8
            fifo 8
            empty 38 38
            null 38 closed 38
            count 2
            dash 8
            tty 38
            8
            bad 65
            loop a 38
            loop b 38

            """, "\(result.stderr)")
        #expect(result.stderr == "cvlayout: error: <stdin>: heights: expected an array of heights, got \"x\"\n", "\(result.stderr)")
    }

    @Test func aClosedPipeEndsQuietly() throws {
        let result = try shell(#""$CVLAYOUT" waterfall --count 200000 | head -c 100 > /dev/null; echo "${PIPESTATUS[0]}""#)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(result.stderr.isEmpty)
        // The same through `-o /dev/stdout` (it was 74), and `diff` keeps its verdict (it was 0).
        let output = try shell(#""$CVLAYOUT" waterfall --count 200000 -o /dev/stdout | head -c 100 > /dev/null; echo "${PIPESTATUS[0]}""#)
        #expect(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(output.stderr.isEmpty)
        let diff = try shell(#"""
            dir=$(mktemp -d) && "$CVLAYOUT" waterfall --count 20000 -o "$dir/a.json" &&
            "$CVLAYOUT" waterfall --count 20000 --columns 4 -o "$dir/b.json" &&
            { "$CVLAYOUT" diff "$dir/a.json" "$dir/b.json" | head -c 10 > /dev/null; echo "${PIPESTATUS[0]}"; }; rm -rf "$dir"
            """#)
        #expect(diff.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(diff.stderr)")
        #expect(diff.stderr.isEmpty)
        // A picture whose reader went away still leaves the report in its file.
        let picture = try shell(#"""
            dir=$(mktemp -d) && "$CVLAYOUT" waterfall --count 20000 -o "$dir/a.json" &&
            "$CVLAYOUT" waterfall --count 20000 --columns 4 -o "$dir/b.json" &&
            { "$CVLAYOUT" diff -f svg --report-file "$dir/r.txt" "$dir/a.json" "$dir/b.json" | head -c 10 > /dev/null;
              echo "${PIPESTATUS[0]}"; }; head -1 "$dir/r.txt"; rm -rf "$dir"
            """#)
        #expect(picture.stdout.hasPrefix("1\n--- "), "\(picture.stdout) \(picture.stderr)")
    }

    /// Issue 28: a pipe that is plainly not a layout is refused from its first bytes, not
    /// copied to its end (`yes` never ends: only an early refusal finishes).
    @Test func diffRefusesANonLayoutPipeFromItsStart() throws {
        let csv = try shell(#"""
            dir=$(mktemp -d) && "$CVLAYOUT" line --count 2 -o "$dir/a.json" &&
            { yes section,item | timeout 20 "$CVLAYOUT" diff "$dir/a.json" -; echo "status ${PIPESTATUS[1]}"; }; rm -rf "$dir"
            """#)
        #expect(csv.stdout == "status 2\n")
        #expect(csv.stderr == "cvlayout: error: <stdin>: row 2: section: expected an integer ≥ 0, got section\n")
        let json = try shell(#"""
            dir=$(mktemp -d) && "$CVLAYOUT" line --count 2 -o "$dir/a.json" &&
            { yes '{' | timeout 20 "$CVLAYOUT" diff "$dir/a.json" -; echo "status ${PIPESTATUS[1]}"; }; rm -rf "$dir"
            """#)
        #expect(json.stdout == "status 2\n")
        #expect(json.stderr == "cvlayout: error: <stdin>:2:1: invalid JSON: unexpected character '{': expected a string key\n")
        // A long layout through a pipe is still compared whole (its start is only cut short).
        let long = try shell(#"""
            dir=$(mktemp -d) && "$CVLAYOUT" waterfall --count 3000 -o "$dir/a.json" &&
            "$CVLAYOUT" waterfall --count 3000 | "$CVLAYOUT" diff "$dir/a.json" - &&
            "$CVLAYOUT" waterfall --count 3000 -f csv | "$CVLAYOUT" diff "$dir/a.json" -; echo "status $?"; rm -rf "$dir"
            """#)
        #expect(long.stdout.hasSuffix("status 0\n"), "\(long.stdout) \(long.stderr)")
    }

    /// `diff -` on the process's own standard input: a pipe (copied to a temporary file), a
    /// redirected file read from its offset, a device (read whole, within the limit) and a
    /// closed descriptor give what the same file gives by name, or the same trouble.
    @Test func diffReadsEveryKindOfStandardInput() throws {
        let result = try shell(#"""
            dir=$(mktemp -d) && "$CVLAYOUT" waterfall --count 3000 -o "$dir/a.json" &&
            "$CVLAYOUT" waterfall --count 3000 --width 391 -o "$dir/b.json" &&
            { head -n 3 "$dir/b.json"; sed -n '4,$p' "$dir/b.json" | head -n -1 | sed 's/,$//' | shuf | sed '$!s/$/,/'
              tail -n 1 "$dir/b.json"; } > "$dir/c.json" &&
            named=$("$CVLAYOUT" diff "$dir/a.json" "$dir/c.json"; echo "status $?")
            piped=$(cat "$dir/c.json" | "$CVLAYOUT" diff "$dir/a.json" -; echo "status $?")
            redirected=$({ head -c 0 > /dev/null; "$CVLAYOUT" diff "$dir/a.json" - < "$dir/c.json"; }; echo "status $?")
            [ "$named" = "${piped//<stdin>/$dir/c.json}" ] && echo piped-same
            [ "$named" = "${redirected//<stdin>/$dir/c.json}" ] && echo redirected-same
            "$CVLAYOUT" diff "$dir/a.json" - < /dev/null; echo "null $?"
            "$CVLAYOUT" diff "$dir/a.json" - <&-; echo "closed $?"
            echo "$named" | tail -n 2; rm -rf "$dir"
            """#)
        #expect(result.stdout.contains("piped-same\nredirected-same\nnull 2\nclosed 2\n"), "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("differ") && result.stdout.contains("status 1"), "\(result.stdout)")
        #expect(result.stderr == "cvlayout: error: <stdin>: empty file: expected a layout (JSON or CSV)\n"
                    + "cvlayout: error: <stdin>: cannot read: Bad file descriptor\n", "\(result.stderr)")
    }

    /// Killed while writing `-o`, the process leaves the old file and no temporary file;
    /// a SIGHUP it was started ignoring (`nohup`) does not stop it. (The child is started with
    /// no signal blocked and default actions: the test runner's own settings would be
    /// inherited otherwise.)
    @Test(arguments: ["INT", "TERM", "HUP", "QUIT", "USR1", "USR2", "ALRM", "ignored HUP"])
    func aSignalRemovesTheTemporaryOutput(signal: String) throws {
        let ignored = signal.hasPrefix("ignored")
        let result = try shell(#"""
            dir=$(mktemp -d); echo OLD > "$dir/out.json"
            \#(ignored ? "trap '' HUP" : "")
            python3 -c 'import os, signal, sys
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            for s in (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2, signal.SIGALRM) + (() if sys.argv[1] == "keep" else (signal.SIGHUP,)):
                signal.signal(s, signal.SIG_DFL)
            os.execv(sys.argv[2], sys.argv[2:])' \#(ignored ? "keep" : "reset") "$CVLAYOUT" waterfall --count 1000000 -o "$dir/out.json" & pid=$!
            # Wait until the temporary file exists, then signal.
            for _ in $(seq 500); do ls -A "$dir" | grep -q 'tmp$' && break; sleep 0.01; done
            kill -\#(signal.split(separator: " ").last!) $pid; wait $pid; echo "status $?"
            ls -A "$dir"; head -c 3 "$dir/out.json"; echo; rm -rf "$dir"
            """#)
        if ignored {
            #expect(result.stdout == "status 0\nout.json\n{\"e\n", "\(result.stderr)")
        } else {
            #expect(result.stdout.hasPrefix("status 1"), "\(result.stderr)")  // 128 + the signal
            let number = ["INT": 2, "QUIT": 3, "USR1": 10, "USR2": 12, "ALRM": 14, "TERM": 15, "HUP": 1][signal]!
            #expect(result.stdout.hasPrefix("status \(128 + number)\n"), "\(result.stdout)")
            #expect(result.stdout.hasSuffix("\nout.json\nOLD\n"), "\(result.stdout)")
        }
    }

    @Test func fullDiskGives74AndKeepsTheOldFile() throws {
        let result = try shell(#"set -o pipefail; "$CVLAYOUT" ring > /dev/full"#)
        #expect(result.status == 74)
        #expect(result.stderr.hasPrefix("cvlayout: error: cannot write to standard output"))
    }

    @Test func aClosedOrFullStandardErrorNeverCrashes() throws {
        for redirect in ["2>&-", "2>/dev/full"] {
            let usage = try shell("\"$CVLAYOUT\" waterfall --bogus \(redirect); echo \"status $?\"")
            #expect(usage.stdout == "status 64\n")
            let warning = try shell("\"$CVLAYOUT\" flow --item-size 1000,10 > /dev/null \(redirect); echo \"status $?\"")
            #expect(warning.stdout == "status 0\n")
        }
    }

    @Test func outputThroughASymbolicLinkReplacesTheFileItNames() throws {
        let result = try shell("""
            dir=$(mktemp -d) && cd "$dir" && echo old > real.json && ln -s real.json link.json &&
            "$CVLAYOUT" waterfall --count 1 -o link.json && test -L link.json && head -c 9 real.json && echo &&
            stat -c %a real.json && ls -A | wc -l; rm -rf "$dir"
            """)
        #expect(result.stdout == "{\"engine\"\n644\n2\n")
    }

    /// `-o /dev/stdout` (and `/dev/fd/N`) writes to the descriptor the shell opened: `>>`
    /// appends after what the file holds, and the file is not replaced by a new one.
    @Test func outputToDevStdoutWritesThroughTheShellsDescriptor() throws {
        let result = try shell("""
            dir=$(mktemp -d) && cd "$dir" && echo header > out.log && before=$(stat -c %i out.log) &&
            "$CVLAYOUT" waterfall --count 1 -o /dev/stdout >> out.log && echo >> out.log &&
            "$CVLAYOUT" waterfall --count 1 -f csv -o /dev/fd/3 3>> out.log &&
            test "$(stat -c %i out.log)" = "$before" && head -c 20 out.log && echo && wc -l < out.log; rm -rf "$dir"
            """)
        // The header line, the JSON's 5 lines, the blank line, the CSV's 2.
        #expect(result.stdout == "header\n{\"engine\":\"wa\n9\n", "\(result.stderr)")
        // A descriptor that is not open is no file to create.
        let closed = try shell(#""$CVLAYOUT" waterfall --count 1 -o /dev/fd/9"#)
        #expect(closed.status == 73 && closed.stderr.hasPrefix("cvlayout: error: cannot create output file '/dev/fd/9'"))
    }

    /// A file name up to the folder's limit of 255 bytes is written: the temporary file
    /// beside it takes a short name of its own when `.NAME.cvlayout-….tmp` would be too long.
    @Test func aLongFileNameIsWritten() throws {
        let name = String(repeating: "a", count: 250) + ".json"
        let result = try shell("""
            dir=$(mktemp -d) && cd "$dir" && "$CVLAYOUT" waterfall --count 1 -o \(name) && "$CVLAYOUT" waterfall --count 2 -o \(name) &&
            ls -A | wc -l && grep -c indexPath \(name); rm -rf "$dir"
            """)
        #expect(result.status == 0 && result.stdout == "1\n2\n", "\(result.stderr)")
    }

    /// `--artifacts` with a one-character folder name (Foundation's `deletingLastPathComponent`
    /// traps on one): the folder is made and the artifacts written.
    @Test func aOneCharacterArtifactsFolderIsMade() throws {
        let result = try shell("""
            dir=$(mktemp -d) && cd "$dir" && "$CVLAYOUT" flow --count 5 -o g.json &&
            "$CVLAYOUT" flow --count 6 --check g.json --artifacts x > /dev/null 2>&1; echo $? && ls x; rm -rf "$dir"
            """)
        #expect(result.stdout == "1\ng.actual.json\ng.diff.svg\ng.report.txt\n", "\(result.stderr)")
    }

    @Test func invalidUTF8IsASyntaxErrorWithItsPosition() throws {
        let result = try shell(#"printf '[1,2,"\xff\xfe"]' | "$CVLAYOUT" waterfall -"#)
        #expect(result.status == 65)
        #expect(result.stderr == "cvlayout: error: <stdin>:1:7: invalid JSON: invalid UTF-8\n")
    }

    @Test func aHugeColumnCountIsFast() throws {
        // A billion columns of width 3.9e-7: valid, and only the used columns are tracked.
        let result = try shell("timeout 20 \"$CVLAYOUT\" waterfall --column-spacing 0 --columns 1000000000 --count 3 -f csv | wc -l")
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "4")
    }

    @Test func unwritableOutputGives73() throws {
        let result = try shell(#""$CVLAYOUT" ring -o /proc/cvlayout-test.json"#)
        #expect(result.status == 73)
        #expect(result.stdout.isEmpty && result.stderr.hasPrefix("cvlayout: error: cannot create output file"))
    }
}
