import Foundation
import Testing
@testable import CVLayoutCLI

/// One bad input: arguments (with `DATA` standing for a file holding `dataset`), the exit
/// status SPEC section 3 gives, and a piece of the one-line message.
struct BadInput: CustomTestStringConvertible, Sendable {
    let arguments: String
    let dataset: String?
    let status: Int32
    let message: String

    init(_ arguments: String, _ dataset: String? = nil, _ status: Int32, _ message: String) {
        self.arguments = arguments
        self.dataset = dataset
        self.status = status
        self.message = message
    }

    var testDescription: String { "cvlayout \(arguments)" + (dataset.map { " <<< \($0.prefix(40))" } ?? "") }
}

let badInputs: [BadInput] = [
    // Usage (64): engines, flags, values that do not parse, conflicts, index paths.
    BadInput("", nil, 64, "no engine given"),
    BadInput("waterfal", nil, 64, "unknown engine 'waterfal'; did you mean 'waterfall'?"),
    BadInput("--columns 3", nil, 64, "expected an engine before options"),
    BadInput("waterfall --colums 3", nil, 64, "unknown option '--colums'; did you mean '--columns'?"),
    BadInput("ring --radus 3", nil, 64, "did you mean '--radius'?"),
    BadInput("waterfall --bogus", nil, 64, "unknown option '--bogus'"),
    BadInput("waterfall -x", nil, 64, "unknown option '-x'"),
    // Found by a tester: help for an unknown command exited 0; "1 items"; an empty GOLDEN.
    BadInput("--help bogus", nil, 64, "unknown engine 'bogus'"),
    BadInput("waterfall --count 1 --item 0:5", nil, 64, "(index path out of range: section 0 has 1 item)"),
    BadInput("waterfall --check=", nil, 64, "--check: GOLDEN must be a file, not ''"),
    BadInput("waterfall --rect 0,0,-1,10", nil, 65, "--rect: expected finite X,Y and W,H ≥ 0, got '0,0,-1,10'"),
    // Columns that do not fit are blamed on the value that was given. Found by a tester.
    BadInput("waterfall DATA", #"{"options":{"column-spacing":200},"heights":[1]}"#, 65,
             "data.json: options.column-spacing: 3 columns do not fit in 390 points (column width -3.333)"),
    BadInput("waterfall DATA", #"{"sections":[{"heights":[1],"insets":[0,300,0,300]}]}"#, 65,
             "data.json: sections[0].insets: no room for columns: the width less the insets leaves -210 points"),
    BadInput("waterfall --insert 0:2=99x5 DATA", "[1, 2]", 65,
             "--insert 0:2: section 0 gives heights; the item needs a height (S:I=H), got a size"),
    BadInput("ring DATA", #"{"options":{"heart-from":"9:0"},"rings":[1,6]}"#, 65,
             "data.json: options.heart-from: 9:0: no such item (index path out of range: sections 0-1 have 1, 6 items)"),
    BadInput("ring DATA", #"{"options":{"heart-style":"smooth","heart-to":"9:0"},"rings":[1,6]}"#, 65,
             "data.json: options.heart-to: 9:0: no such item"),
    BadInput("waterfall DATA", #"{"options":{"item":"0:1","rect":"0,0,1,1"},"heights":[1]}"#, 65,
             "data.json: options.item: --item and --rect cannot be used together"),
    // Issue 16: item objects, spans, per-section spacing, the waterfall's new options.
    BadInput("waterfall DATA", #"{"items":[1,2,3,{"height":4,"span":4}]}"#, 65,
             "data.json: items[3].span: span 4 is wider than the section's 3 columns (the default)"),
    BadInput("waterfall --columns 2 DATA", #"{"items":[1,{"height":4,"span":3}]}"#, 65,
             "data.json: items[1].span: span 3 is wider than the section's 2 columns (--columns)"),
    BadInput("waterfall DATA", #"{"sections":[{"count":1},{"items":[1,{"height":4,"span":3}],"columns":2}]}"#, 65,
             "data.json: sections[1].items[1].span: span 3 is wider than the section's 2 columns"),
    BadInput("waterfall DATA", #"{"items":[{"height":4,"spam":2}]}"#, 65,
             "data.json: items[0].spam: unknown key; did you mean 'span'? (expected 'height', 'size' or 'span')"),
    BadInput("waterfall DATA", #"{"sections":[{"items":[{"size":[1,1],"colour":2}]}]}"#, 65,
             "data.json: sections[0].items[0].colour: unknown key"),
    BadInput("waterfall DATA", #"{"items":[{"height":4,"size":[1,2]}]}"#, 65,
             "data.json: items[0].size: conflicts with 'height': give only one of 'height' or 'size'"),
    BadInput("waterfall DATA", #"{"items":[{}]}"#, 65, "data.json: items[0]: an item needs 'height' or 'size'"),
    BadInput("waterfall DATA", #"{"items":[{"size":[0,2]}]}"#, 65, "data.json: items[0].size[0]: expected a width > 0, got 0"),
    BadInput("waterfall DATA", #"{"items":[{"height":-1}]}"#, 65, "data.json: items[0].height: expected a finite number ≥ 0, got -1"),
    BadInput("waterfall DATA", #"{"items":[{"height":1,"span":0}]}"#, 65, #"data.json: items[0].span: expected an integer ≥ 1 or "full", got 0"#),
    BadInput("waterfall DATA", #"{"items":[{"height":1,"span":"half"}]}"#, 65, #"data.json: items[0].span: expected an integer ≥ 1 or "full", got "half""#),
    BadInput("waterfall DATA", #"{"items":["x"]}"#, 65, #"data.json: items[0]: expected a height, a [width, height] size or an item object, got "x""#),
    BadInput("waterfall DATA", #"{"items":{"height":1}}"#, 65, "data.json: items: expected an array of items"),
    BadInput("waterfall DATA", #"{"heights":[1],"items":[2]}"#, 65, "data.json: items: conflicts with 'heights'"),
    BadInput("waterfall --columns 300 --width 100000 --column-spacing 0 DATA", #"{"items":[{"height":1,"span":"full"}]}"#, 65,
             "--columns: a section whose items span columns has at most 256 columns, got 300"),
    BadInput("waterfall DATA", #"{"sections":[{"heights":[1],"column-spacing":-1}]}"#, 65,
             "data.json: sections[0].column-spacing: expected a finite number ≥ 0, got -1"),
    BadInput("waterfall DATA", #"{"sections":[{"heights":[1],"column-spacing":400}]}"#, 65,
             "data.json: sections[0].column-spacing: 3 columns do not fit in 390 points"),
    BadInput("waterfall DATA", #"{"sections":[{"heights":[1],"header-insets":"1,2"}]}"#, 65,
             #"data.json: sections[0].header-insets: expected insets: a number, "T,L,B,R", [T, L, B, R] or {"top": T, "left": L, "bottom": B, "right": R}, got "1,2""#),
    BadInput("waterfall DATA", #"{"sections":[{"heights":[1],"item-spacing":"x"}]}"#, 65,
             #"data.json: sections[0].item-spacing: expected a finite number ≥ 0, got "x""#),
    BadInput("flow DATA", #"{"sections":[{"heights":[1],"item-spacing":3}]}"#, 65, "data.json: sections[0].item-spacing: not used by flow"),
    BadInput("line DATA", #"{"items":[{"height":1}]}"#, 65, "data.json: items: not used by line (item objects are the waterfall's"),
    BadInput("waterfall --scroll-direction sideways", nil, 64, "--scroll-direction: expected one of vertical, horizontal, got 'sideways'"),
    BadInput("waterfall --pin-headers=yes", nil, 64, "--pin-headers takes no value"),
    BadInput("waterfall DATA", #"{"options":{"pin-headers":"yes"},"heights":[1]}"#, 65, "data.json: options.pin-headers"),
    BadInput("waterfall --insert 0:1 DATA", #"{"items":[{"height":1,"span":2},{"size":[3,3]}]}"#, 65,
             "--insert 0:1: section 0 gives item objects; the item needs a height or a size (S:I=H or S:I=WxH), got none"),
    // The README promised "did you mean" for dataset keys too. Found by a tester.
    BadInput("waterfall DATA", #"{"heigths":[1]}"#, 65, "data.json: heigths: unknown key; did you mean 'heights'? (expected"),
    BadInput("waterfall DATA", #"{"sections":[{"heights":[1],"headr":3}]}"#, 65,
             "sections[0].headr: unknown key; did you mean 'header'?"),
    // A --heart-to out of range when no heart is drawn was accepted. Found by a tester.
    BadInput("ring --heart-style smooth --heart-to 5:3 DATA", "[1]", 64, "--heart-to 5:3: no such item"),
    BadInput("ring --heart-style smooth --heart-to 1:0 DATA", "[0]", 64, "--heart-to 1:0: no such item"),
    BadInput("waterfall DATA", #"{"heights":[1],"options":{"item":"0:5"}}"#, 65,
             "data.json: options.item: 0:5: no such item (index path out of range: section 0 has 1 item)"),
    BadInput("waterfall --columns", nil, 64, "missing value for --columns"),
    BadInput("waterfall --columns --insets 3", nil, 64, "missing value for --columns"),
    BadInput("waterfall --columns 12x", nil, 64, "--columns: expected an integer, got '12x'"),
    BadInput("waterfall --columns 2.5", nil, 64, "--columns: expected an integer, got '2.5'"),
    BadInput("waterfall --column-spacing ten", nil, 64, "--column-spacing: expected a number, got 'ten'"),
    BadInput("waterfall --column-spacing nan", nil, 64, "expected a number, got 'nan'"),
    BadInput("waterfall --column-spacing inf", nil, 64, "expected a number, got 'inf'"),
    BadInput("waterfall --column-spacing 0x10", nil, 64, "expected a number, got '0x10'"),
    BadInput("waterfall --insets 1,2", nil, 64, "--insets: expected T,L,B,R or one number, got '1,2'"),
    BadInput("waterfall --insets 1,,2,3", nil, 64, "--insets: expected T,L,B,R"),
    BadInput("waterfall --rect 1,2,3", nil, 64, "--rect: expected X,Y,W,H"),
    BadInput("flow --rect 1e308,0,1.7e308,10", nil, 65, "--rect: X+W and Y+H must be finite too"),
    BadInput("waterfall --offset 5", nil, 64, "--offset: expected X,Y"),
    BadInput("waterfall --order shortest", nil, 64, "did you mean 'shortest-first'?"),
    BadInput("waterfall -f png", nil, 64, "--format: expected one of json, csv, svg, got 'png'"),
    BadInput("waterfall --format=xml", nil, 64, "expected one of json, csv, svg"),
    BadInput("waterfall --precision 16", nil, 64, "--precision: expected an integer from 0 to 15 or 'full'"),
    BadInput("waterfall --precision -1", nil, 64, "--precision"),
    // Issue 28: an integer in form but out of range is bad data, past 2⁵³ too; one syntax.
    BadInput("waterfall --seed -1", nil, 65, "--seed: expected an integer from 0 to 18446744073709551615, got '-1'"),
    BadInput("waterfall --seed 18446744073709551616", nil, 65, "--seed: expected an integer from 0 to 18446744073709551615"),
    BadInput("waterfall --seed 1e300", nil, 65, "--seed: expected an integer from 0 to 18446744073709551615, got '1e300'"),
    BadInput("waterfall --seed 1.5", nil, 64, "--seed: expected an integer from 0 to 18446744073709551615, got '1.5'"),
    BadInput("ring --heart-samples 9007199254740992", nil, 65,
             "--heart-samples: expected an integer of magnitude below 2^53, got '9007199254740992'"),
    BadInput("justified --max-rows 9007199254740992", nil, 65, "--max-rows: expected an integer of magnitude below 2^53"),
    BadInput("waterfall --columns -1e16", nil, 65, "--columns: expected an integer of magnitude below 2^53, got '-1e16'"),
    BadInput("waterfall --count 1e999", nil, 65, "--count: expected an integer of magnitude below 2^53"),
    BadInput("waterfall --scroll-to 0,1 -f svg --frames 1e16", nil, 64, "--frames 1e16: expected an integer from 2 to 1000"),
    BadInput("waterfall DATA", #"{"options":{"columns":1e16},"heights":[1]}"#, 65,
             "data.json: options.columns: expected an integer of magnitude below 2^53, got 10000000000000000"),
    BadInput("waterfall --no-labels=yes", nil, 64, "--no-labels takes no value"),
    BadInput("waterfall --item 0:1 --rect 0,0,10,10", nil, 64, "--item and --rect cannot be used together"),
    BadInput("waterfall --item 0:50", nil, 64, "--item 0:50: no such item"),
    BadInput("waterfall --item 1:0", nil, 64, "--item 1:0: no such item (no section 1: section 0 has 50 items)"),
    BadInput("waterfall --item a:b", nil, 64, "--item: expected S:I"),
    BadInput("waterfall --item -1", nil, 64, "--item: expected S:I"),
    BadInput("ring --heart-from 4:0", nil, 64, "--heart-from 4:0: no such item"),
    BadInput("ring --heart-from 3:18", nil, 64, "no such item"),
    BadInput("ring --heart-to 2:0", nil, 64, "--heart-to 2:0: the seed style always ends at the centre, 0:0 (--heart-style smooth goes to any avatar)"),
    BadInput("waterfall DATA", #"{"columns": 2, "heights": [1]}"#, 65,
             #"columns: unknown key; 'columns' is an option: options go under "options" ({"options": {"columns": …}, …})"#),
    BadInput("ring DATA", #"{"radius": 20, "rings": [1, 2]}"#, 65, #"radius: unknown key; 'radius' is an option: options go under "options""#),
    BadInput("waterfall DATA", #"{"colums": 2, "heights": [1]}"#, 65, "colums: unknown key"),
    BadInput("waterfall --move 0:1..x", nil, 64, "--move: expected S:I..S:I"),
    BadInput("waterfall --canvas all2", nil, 64, "--canvas: expected one of all, content, visible, rect, got 'all2'"),
    BadInput("waterfall --labels items", nil, 64, "--labels: expected one of item, index-path, none, got 'items'; did you mean 'item'?"),
    BadInput("waterfall DATA", #"{"options": {"canvas": "rect"}, "heights": [1]}"#, 65,
             "options.canvas: --canvas rect draws the --rect area"),
    BadInput("waterfall --device", nil, 64, "missing value for --device (NAME)"),
    BadInput("ring --direction sideways", nil, 64, "--direction: expected one of clockwise, counterclockwise"),
    BadInput("waterfall DATA --count 3", "[1]", 64, "--count sets the size of the embedded data"),
    BadInput("waterfall DATA other.json", "[1]", 64, "more than one DATASET"),
    BadInput("engines extra", nil, 64, "'engines' takes no arguments"),
    // Bad data (65): from the dataset.
    BadInput("waterfall DATA", "[1, 2,", 65, "data.json:1:7: invalid JSON: unexpected end of input"),
    BadInput("waterfall DATA", "[1, 2]]", 65, "data.json:1:7: invalid JSON: unexpected character ']' after the JSON value"),
    BadInput("waterfall DATA", "{\"heights\":\n  [1, @]}", 65, "data.json:2:7: invalid JSON"),
    BadInput("waterfall DATA", "[1, 2,]", 65, "data.json:1:7: invalid JSON"),
    BadInput("waterfall DATA", "", 65, "data.json:1:1: invalid JSON: empty document"),
    BadInput("waterfall DATA", "[01]", 65, "leading zero"),
    BadInput("waterfall DATA", "[\"12\"]", 65, "data.json: [0]: expected a finite number ≥ 0, got \"12\""),
    BadInput("waterfall DATA", "[10, -3]", 65, "data.json: [1]: expected a finite number ≥ 0, got -3"),
    BadInput("waterfall DATA", "[true]", 65, "data.json: [0]: expected a finite number ≥ 0, got true"),
    BadInput("waterfall DATA", "[null]", 65, "[0]: expected a finite number ≥ 0, got null"),
    BadInput("waterfall DATA", "[1e400]", 65, "data.json:1:2: invalid JSON: number 1e400 is too large"),
    BadInput("waterfall DATA", "{\"heights\": [1], \"heights\": [2]}", 65, "duplicate key 'heights'"),
    BadInput("waterfall DATA", "{\"sections\": [{\"heights\": [1, 2, 3, -3]}, {\"heights\": [4]}]}", 65,
             "data.json: sections[0].heights[3]: expected a finite number ≥ 0, got -3"),
    BadInput("waterfall DATA", "{\"sections\": [{}, {\"heights\": [1, \"x\"]}]}", 65, "sections[1].heights[1]"),
    BadInput("waterfall DATA", "{\"sections\": [{\"columns\": 0}]}", 65, "sections[0].columns: expected an integer ≥ 1, got 0"),
    BadInput("waterfall DATA", "{\"sections\": [{\"columns\": 1.5}]}", 65, "sections[0].columns: expected an integer, got 1.5"),
    BadInput("waterfall DATA", "{\"sections\": [{\"columns\": 60, \"heights\": [1]}]}", 65, "sections[0].columns: 60 columns do not fit"),
    BadInput("waterfall DATA", "{\"sections\": [{\"insets\": \"1,2\"}]}", 65, "sections[0].insets: expected insets: a number, \"T,L,B,R\""),
    BadInput("waterfall DATA", "{\"sections\": [{\"insets\": [1, 2, 3, -4]}]}", 65, "sections[0].insets"),
    BadInput("waterfall DATA", "{\"sections\": {}}", 65, "sections: expected an array of section objects"),
    BadInput("waterfall DATA", "{\"sections\": [3]}", 65, "sections[0]: expected a section object, got 3"),
    BadInput("waterfall DATA", "{\"sections\": [{\"heigths\": [1]}]}", 65, "sections[0].heigths: unknown key"),
    BadInput("waterfall DATA", "{\"heigths\": [1]}", 65, "heigths: unknown key"),
    BadInput("waterfall DATA", "{\"heights\": [1], \"count\": 3}", 65, "give only one of"),
    BadInput("waterfall DATA", "{}", 65, "no items"),
    BadInput("waterfall DATA", "\"hello\"", 65, "(top level): expected an array of heights"),
    BadInput("waterfall DATA", "[[100, 50], [0, 50]]", 65, "[1][0]: expected a width > 0, got 0"),
    BadInput("waterfall DATA", "[[100, 50], [10]]", 65, "[1]: expected a size [width, height]"),
    BadInput("waterfall DATA", "[[100, 50], 7]", 65, "[1]: expected a size [width, height], got 7"),
    BadInput("waterfall DATA", "{\"count\": -1}", 65, "count: expected an integer ≥ 0, got -1"),
    BadInput("waterfall DATA", "{\"count\": 6.5}", 65, "count: expected an integer, got 6.5"),
    BadInput("waterfall DATA", "{\"count\": 1e308}", 65, "count"),
    BadInput("waterfall DATA", "{\"count\": 20000000}", 65, "more than 10000000 elements"),
    BadInput("waterfall DATA", "[1e308, 1e308, 1e308, 1e308]", 65, "not finite"),
    BadInput("waterfall --columns 1 DATA", "[1e308, 1e308]", 65, "not finite"),
    // Finite as laid out, infinite once snapped (1e308 · 3): the streamed first pass snaps too.
    BadInput("waterfall --scale 3 DATA", "[1, 1e308]", 65,
             "the layout's numbers are not finite (the frame of item 0:1): sizes overflow when summed or multiplied by --scale"),
    BadInput("stack --scale 3 --item-size 1.7e308,1 --count 20000", nil, 65, "not finite (the frame of item 0:0)"),
    BadInput("waterfall DATA", "{\"options\": {\"colums\": 2}, \"heights\": [1]}", 65,
             "data.json: options.colums: unknown option for waterfall; did you mean 'columns'?"),
    BadInput("waterfall DATA", "{\"options\": {\"columns\": \"two\"}, \"heights\": [1]}", 65,
             "data.json: options.columns: expected an integer, got \"two\""),
    BadInput("waterfall DATA", "{\"options\": {\"columns\": 0}, \"heights\": [1]}", 65,
             "data.json: options.columns: expected an integer ≥ 1, got 0"),
    BadInput("waterfall DATA", "{\"options\": {\"output\": \"x.json\"}, \"heights\": [1]}", 65,
             "'output' can only be given on the command line"),
    BadInput("waterfall DATA", "{\"options\": {\"no-labels\": 3}, \"heights\": [1]}", 65, "expected true or false"),
    BadInput("waterfall DATA", "{\"options\": [1], \"heights\": [1]}", 65, "options: expected an object"),
    BadInput("ring DATA", "[1, 6.5]", 65, "data.json: [1]: expected an integer, got 6.5"),
    BadInput("ring DATA", "[1, -6]", 65, "[1]: expected an integer ≥ 0, got -6"),
    BadInput("ring DATA", "{\"heights\": [1]}", 65, "heights: unknown key (expected 'rings' or 'options')"),
    BadInput("ring DATA", "{\"rings\": 4}", 65, "rings: expected an array of ring counts, got 4"),
    BadInput("ring DATA", "[5000000, 5000000, 1]", 65, "data.json: [2]: more than 10000000 elements"),
    // Bad data (65): flags that parsed but are out of range.
    BadInput("waterfall --columns 0", nil, 65, "--columns: expected an integer ≥ 1, got 0"),
    BadInput("waterfall --columns -2", nil, 65, "--columns: expected an integer ≥ 1, got -2"),
    BadInput("waterfall --columns 40", nil, 65, "--columns: 40 columns do not fit in 390 points"),
    BadInput("waterfall --width 0", nil, 65, "--width: no room for columns: the width less the insets leaves 0 points"),
    BadInput("waterfall --width -0 --columns 1", nil, 65, "--width: no room for columns"),
    BadInput("waterfall --width -1", nil, 65, "--width: expected a finite number ≥ 0, got -1"),
    BadInput("waterfall --width 1e999", nil, 65, "--width: expected a finite number ≥ 0"),
    BadInput("waterfall --insets 200,200,0,200", nil, 65, "no room for columns: the width less the insets leaves -10 points"),
    BadInput("waterfall --column-spacing -1", nil, 65, "--column-spacing: expected a finite number ≥ 0, got -1"),
    BadInput("waterfall --item-spacing 1e400", nil, 65, "--item-spacing: expected a finite number ≥ 0"),
    BadInput("waterfall --header-height -4", nil, 65, "--header-height: expected a finite number ≥ 0, got -4"),
    BadInput("waterfall --header-height 10 --header-insets 0,300,0,300", nil, 65, "--header-insets"),
    BadInput("waterfall --count -3", nil, 65, "--count: expected an integer from 0 to 10000000"),
    BadInput("waterfall --count 10000001", nil, 65, "--count: expected an integer from 0 to 10000000"),
    BadInput("waterfall --scale 0", nil, 65, "--scale: expected a finite number > 0, got 0"),
    BadInput("waterfall --rect 0,0,-5,5", nil, 65, "--rect: expected finite X,Y and W,H ≥ 0"),
    BadInput("ring --radius -3", nil, 65, "--radius: expected a finite number ≥ 0, got -3"),
    BadInput("ring --shrink -0.5", nil, 65, "--shrink: expected a finite number ≥ 0"),
    BadInput("ring --item-size 1e309", nil, 65, "--item-size: expected a finite number ≥ 0"),
    BadInput("ring --count 3000", nil, 65, "more than the limit"),
    BadInput("ring --radius 1e308 --ring-spacing 1e308", nil, 65, "not finite"),
    // A smooth heart around a ring whose items are past the largest Double: refused, not a
    // trap converting the arc's NaN sweep to a count of pieces.
    BadInput("ring --ring-spacing-growth 1e308 --heart-style smooth --heart-from 1:1 --heart-to 1:0", nil, 65, "not finite"),
    BadInput("ring --ring-spacing 1.79e308 --heart-style smooth --heart-from 2:5 --heart-to 2:6", nil, 65, "not finite"),
    // Found by a tester with fresh eyes.
    BadInput("waterfall DATA", #"{"heights":[1],"he\u0069ghts":[2]}"#, 65, "duplicate key 'heights'"),
    BadInput("waterfall DATA", #"{"heights":[1],"options":{"columns":1,"c\u006flumns":2}}"#, 65, "options: duplicate key 'columns'"),
    // A boolean where a value is parsed says what was expected (it said "a value").
    BadInput("waterfall DATA", #"{"heights":[1],"options":{"columns":true}}"#, 65, "options.columns: expected an integer, got true"),
    BadInput("flow DATA", #"{"heights":[1],"options":{"scroll-direction":false}}"#, 65,
             "options.scroll-direction: expected one of vertical, horizontal, got false"),
    BadInput("waterfall DATA", #"{"\ud800": [1]}"#, 65, "data.json:1:9: invalid JSON: unpaired surrogate"),
    BadInput("waterfall DATA", "[1e999]", 65, "data.json:1:2: invalid JSON: number 1e999 is too large for a double"),
    BadInput("waterfall DATA", "{\"é\": x}", 65, "data.json:1:7: invalid JSON: unexpected character 'x'"),
    BadInput("waterfall --header-height 1 DATA", "{\"count\": 10000000}", 65, "more than the limit of 10000000"),
    BadInput("waterfall --width 1e400", nil, 65, "--width: expected a finite number ≥ 0, got '1e400'"),
    BadInput("waterfall --scale 1e400", nil, 65, "--scale: expected a finite number > 0, got '1e400'"),
    BadInput("ring --count 2000", nil, 65, "11994001 elements: more than the limit of 10000000"),
    BadInput("--version x", nil, 64, "'--version' takes no arguments"),
    BadInput("flow --insets 200,200,0,200 --count 2", nil, 65, "--insets: expected a line length ≥ 0 between the insets, got -10"),
    BadInput("circle /nonexistent/a\nb.json", nil, 66, "/nonexistent/a?b.json: cannot open: no such file"),
    BadInput("transition --from stack --to circle --duration 0.0004", nil, 65, "--duration: expected a finite number of seconds ≥ 0.001"),
    BadInput("transition --from circle --check-tolerance 1", nil, 64, "--check-tolerance is used only with --check GOLDEN"),
    BadInput("transition --from circle --velocity 1,1", nil, 64, "--velocity is not used by transitions"),
    BadInput("transition --from 'circle", nil, 64, "--from"),
    // Cannot open (66), cannot create (73).
    BadInput("waterfall /nonexistent/data.json", nil, 66, "/nonexistent/data.json: cannot open: no such file"),
    BadInput("waterfall /", nil, 66, "/: cannot open: is a directory"),
    BadInput("waterfall -o /nonexistent/dir/out.json", nil, 73, "cannot create output file '/nonexistent/dir/out.json'"),
    BadInput("waterfall -o /", nil, 73, "cannot create output file '/'"),
    // Justified (issue 15): bad settings, items and combinations.
    BadInput("justified --row-height 0", nil, 65, "--row-height: expected a finite number > 0, got 0"),
    BadInput("justified --max-rows 0", nil, 65, "--max-rows: expected an integer ≥ 1, got 0"),
    BadInput("justified --breakout-cadence 0", nil, 65, "--breakout-cadence: expected an integer ≥ 1, got 0"),
    BadInput("justified --row-height-tolerance -0.1", nil, 65, "--row-height-tolerance: expected a finite number ≥ 0, got -0.1"),
    BadInput("justified --force-aspect-ratio 0", nil, 65, "--force-aspect-ratio: expected a finite number > 0, got 0"),
    BadInput("justified DATA", "[1, 0]", 65, "item 0:1: expected an aspect ratio (width ÷ height) that is finite and > 0"),
    BadInput("justified --compat flickr DATA", "[1, -2]", 65, "[1]: expected a finite number ≥ 0, got -2"),
    BadInput("justified --compat flickr --breaking optimal", nil, 64, "--compat flickr goes with --breaking greedy"),
    BadInput("justified --breaking optimal --breakout-cadence 2", nil, 64, "--breakout-cadence goes with --breaking greedy"),
    // Issue 28: more rows inside the height band than optimal breaking looks at.
    BadInput("justified --breaking optimal --spacing 0 DATA", "[" + Array(repeating: "0.001", count: 10_000).joined(separator: ",") + "]",
             65, "--breaking optimal: 10000 items whose rows within the height band number more than 3560000, the limit of "
                 + "optimal breaking (256 an item and a million more, to stay linear)"),
    BadInput("justified --compat flickr --width 20 --insets 10 --count 3", nil, 65,
             "--insets: expected a row width > 0 between the insets, less the spacing (flickr/justified-layout divides 0 by 0 at 0), got 0"),
    BadInput("justified --compat flickr DATA", #"{"sections":[{"count":2,"insets":"0,10,0,380"}]}"#, 65,
             "sections[0].insets: expected a row width > 0 between the insets"),
    BadInput("justified --compat flick", nil, 64, "--compat: expected one of native, flickr, got 'flick'; did you mean 'flickr'?"),
    BadInput("justified DATA", #"{"options":{"compat":"flickr","breaking":"optimal"},"heights":[1]}"#, 65,
             "options.breaking: --compat flickr goes with --breaking greedy"),
    // The other five engines: flags, choices, index paths, conflicts and their datasets.
    BadInput("flow --item-size 50x50", nil, 64, "--item-size: expected W,H or one number, got '50x50'"),
    BadInput("flow --alignment middle", nil, 64, "--alignment: expected one of justified, leading, center, trailing, got 'middle'"),
    BadInput("flow --scroll-direction diagonal", nil, 64, "--scroll-direction: expected one of vertical, horizontal, got 'diagonal'"),
    BadInput("flow --pin-header", nil, 64, "unknown option '--pin-header'; did you mean '--pin-headers'?"),
    BadInput("flow --item 0:30", nil, 64, "--item 0:30: no such item (index path out of range: section 0 has 30 items)"),
    BadInput("flow --item 0:1 --rect 0,0,1,1", nil, 64, "--item and --rect cannot be used together"),
    BadInput("flow --item-size 0,-5", nil, 65, "--item-size: expected a finite number ≥ 0, got -5"),
    BadInput("flow --line-spacing -1", nil, 65, "--line-spacing: expected a finite number ≥ 0, got -1"),
    BadInput("flow --header-size 1e999", nil, 65, "--header-size: expected a finite number ≥ 0, got '1e999'"),
    BadInput("flow DATA", "{\"sections\": [{\"count\": 2, \"columns\": 2}]}", 65,
             "data.json: sections[0].columns: not used by flow (lines take as many items as fit)\n"),
    BadInput("flow DATA", "[[10, 10], [0, 5]]", 65, "data.json: [1][0]: expected a width > 0, got 0"),
    BadInput("flow DATA", "{\"options\": {\"item-size\": \"5x\"}, \"count\": 2}", 65,
             "data.json: options.item-size: expected W,H or one number, got \"5x\""),
    BadInput("line --spacing nan", nil, 64, "--spacing: expected a number, got 'nan'"),
    BadInput("line --item 0:20", nil, 64, "--item 0:20: no such item (index path out of range: section 0 has 20 items)"),
    BadInput("line --target-offset 5", nil, 64, "--target-offset: expected X,Y, got '5'"),
    BadInput("line --velocity 1,2,3", nil, 64, "--velocity: expected X,Y, got '1,2,3'"),
    BadInput("line DATA", "{\"sections\": [{\"count\": 2}, {\"count\": 3}]}", 65,
             "line lays out one section; the dataset has 2"),
    BadInput("carousel --scroll-direction up", nil, 64, "--scroll-direction: expected one of vertical, horizontal, got 'up'"),
    BadInput("carousel --standard-alpha 2", nil, 65, "--standard-alpha: expected a number from 0 to 1, got 2"),
    BadInput("carousel --standard-scale -1", nil, 65, "--standard-scale: expected a finite number ≥ 0, got -1"),
    BadInput("carousel --spacing 1e999", nil, 65, "--spacing: expected a finite number, got '1e999'"),
    BadInput("carousel --item-size 1e308,1e308", nil, 65, "the layout's numbers are not finite (contentSize)"),
    BadInput("stack --angles 1,x,3", nil, 64, "--angles: expected comma-separated degrees, got '1,x,3'"),
    BadInput("stack --item 0:8", nil, 64, "--item 0:8: no such item (index path out of range: section 0 has 8 items)"),
    BadInput("stack --angles 1e999", nil, 65, "--angles: expected finite angles, got '1e999'"),
    BadInput("stack --item-size -1", nil, 65, "--item-size: expected a finite number ≥ 0, got -1"),
    BadInput("stack DATA", "{\"options\": {\"angles\": [1]}, \"count\": 2}", 65,
             "data.json: options.angles: expected a number, string or boolean, got an array"),
    BadInput("circle --direction left", nil, 64, "--direction: expected one of clockwise, counterclockwise, got 'left'"),
    BadInput("circle --center-single=yes", nil, 64, "--center-single takes no value"),
    BadInput("circle --count 1.5", nil, 64, "--count: expected an integer, got '1.5'"),
    BadInput("circle --radius -1", nil, 65, "--radius: expected a finite number ≥ 0, got -1"),
    BadInput("circle --item-size 1e309", nil, 65, "--item-size: expected a finite number ≥ 0, got '1e309'"),
    BadInput("circle --start-angle 1e999", nil, 65, "--start-angle: expected a finite number, got '1e999'"),
    BadInput("circle DATA", "[1, 2, [3]]", 65, "data.json: [2]: expected a finite number ≥ 0, got an array"),
    // Hostile sizes (HostileInputTests has the long and deep ones).
    BadInput("circle DATA", "[\"\(String(repeating: "x", count: 70_000))\"]", 65, "data.json:1:2: invalid JSON: string longer than 65536 bytes"),
    BadInput("flow DATA", "{\"\(String(repeating: "k", count: 257))\": 1}", 65, "data.json:1:2: invalid JSON: key longer than 256 bytes"),
    BadInput("line DATA", "\u{FEFF}[1, -2]", 65, "data.json: [1]: expected a finite number ≥ 0, got -2"),
    BadInput("carousel /tmp", nil, 66, "/tmp: cannot open: is a directory"),
    BadInput("line DATA", "{\"sections\": [{\"count\": 2, \"insets\": [0, 1e308, 0, 0]}]}", 65,
             "data.json: sections[0].insets: not used by line\n"),
]

/// A dataset on standard input, the arguments, and the exact status and stderr: a conflict or
/// a range check involving a value of the dataset's `"options"` is bad data (65, one line
/// naming `<stdin>` and the JSON path, no usage line), and a value the command line overrides
/// is checked all the same. Issue 19.
struct DatasetOptionCase: CustomTestStringConvertible, Sendable {
    let arguments: [String]
    let dataset: String
    let status: Int32
    let stderr: String

    init(_ arguments: String, _ dataset: String, _ status: Int32, _ stderr: String) {
        self.arguments = arguments.split(separator: " ").map(String.init)
        self.dataset = dataset
        self.status = status
        self.stderr = stderr
    }

    var testDescription: String { "cvlayout \(arguments.joined(separator: " ")) <<< \(dataset)" }
}

let datasetOptionCases: [DatasetOptionCase] = [
    // Conflicts inside the dataset's options (they were usage errors naming flags never given).
    DatasetOptionCase("ring -", #"{"options":{"heart-to":"1:1"},"rings":[1,2]}"#, 65,
                      "cvlayout: error: <stdin>: options.heart-to: 1:1: the seed style always ends at the centre, 0:0 (--heart-style smooth goes to any avatar)\n"),
    DatasetOptionCase("ring -", #"{"options":{"heart-samples":3,"no-heart":true},"rings":[1,2]}"#, 65,
                      "cvlayout: error: <stdin>: options.heart-samples: --heart-samples samples the heart path; "
                      + "it cannot be used with --no-heart\n"),
    DatasetOptionCase("waterfall -", #"{"options":{"item":"0:0","rect":"0,0,1,1"},"heights":[1]}"#, 65,
                      "cvlayout: error: <stdin>: options.item: --item and --rect cannot be used together\n"),
    // One value from a flag, the other from the dataset: the dataset's is named.
    DatasetOptionCase("ring --heart-to 1:1 -", #"{"options":{"heart-style":"seed"},"rings":[1,2]}"#, 65,
                      "cvlayout: error: <stdin>: options.heart-style: --heart-to 1:1: the seed style always ends at the centre, 0:0 (--heart-style smooth goes to any avatar)\n"),
    DatasetOptionCase("ring -", #"{"options":{"heart-samples":0},"rings":[1,2]}"#, 65,
                      "cvlayout: error: <stdin>: options.heart-samples: expected an integer from 1 to 1000000, got 0\n"),
    DatasetOptionCase("ring -", #"{"options":{"heart-from":"5:0"},"rings":[1,2]}"#, 65,
                      "cvlayout: error: <stdin>: options.heart-from: 5:0: no such item (index path out of range: "
                      + "sections 0-1 have 1, 2 items)\n"),
    // Every value from flags: a usage error, as before, with its usage line.
    DatasetOptionCase("ring --heart-to 1:1 -", #"{"rings":[1,2]}"#, 64,
                      "cvlayout: error: --heart-to 1:1: the seed style always ends at the centre, 0:0 (--heart-style smooth goes to any avatar)\n"
                      + "Run 'cvlayout ring --help' for usage.\n"),
    DatasetOptionCase("ring --heart-samples 3 --no-heart -", #"{"options":{"radius":50},"rings":[1,2]}"#, 64,
                      "cvlayout: error: --heart-samples samples the heart path; it cannot be used with --no-heart\n"
                      + "Run 'cvlayout ring --help' for usage.\n"),
    DatasetOptionCase("waterfall --item 0:0 --rect 0,0,1,1 -", #"{"options":{"columns":2},"heights":[1]}"#, 64,
                      "cvlayout: error: --item and --rect cannot be used together\nRun 'cvlayout waterfall --help' for usage.\n"),
    // A malformed value is bad data even when a flag overrides it (it was ignored: status 0).
    DatasetOptionCase("ring --radius 5 -", #"{"options":{"radius":-1},"rings":[1,2]}"#, 65,
                      "cvlayout: error: <stdin>: options.radius: expected a finite number ≥ 0, got -1\n"),
    DatasetOptionCase("waterfall --columns 2 -", #"{"options":{"columns":"two"},"heights":[1]}"#, 65,
                      "cvlayout: error: <stdin>: options.columns: expected an integer, got \"two\"\n"),
    DatasetOptionCase("waterfall --columns 2 -", #"{"options":{"columns":0},"heights":[1]}"#, 65,
                      "cvlayout: error: <stdin>: options.columns: expected an integer ≥ 1, got 0\n"),
    DatasetOptionCase("waterfall --tolerance 1 -", #"{"options":{"tolerance":-1},"heights":[1]}"#, 65,
                      "cvlayout: error: <stdin>: options.tolerance: expected a finite number ≥ 0, got -1\n"),
    DatasetOptionCase("waterfall -f csv -", #"{"options":{"format":"png"},"heights":[1]}"#, 65,
                      "cvlayout: error: <stdin>: options.format: expected one of json, csv, svg, got \"png\"\n"),
    DatasetOptionCase("waterfall --precision 2 -", #"{"options":{"precision":16},"heights":[1]}"#, 65,
                      "cvlayout: error: <stdin>: options.precision: expected an integer from 0 to 15 or 'full', got 16\n"),
    DatasetOptionCase("waterfall --width 300 -", #"{"options":{"width":-1},"heights":[1]}"#, 65,
                      "cvlayout: error: <stdin>: options.width: expected a finite number ≥ 0, got -1\n"),
    DatasetOptionCase("waterfall --scale 2 -", #"{"options":{"scale":0},"heights":[1]}"#, 65,
                      "cvlayout: error: <stdin>: options.scale: expected a finite number > 0, got 0\n"),
    DatasetOptionCase("waterfall --rect 0,0,1,1 -", #"{"options":{"rect":"0,0,-1,1"},"heights":[1]}"#, 65,
                      "cvlayout: error: <stdin>: options.rect: expected finite X,Y and W,H ≥ 0, got \"0,0,-1,1\"\n"),
    DatasetOptionCase("waterfall --item 0:0 -", #"{"options":{"item":"-1"},"heights":[1]}"#, 65,
                      "cvlayout: error: <stdin>: options.item: expected S:I or I, non-negative integers, got \"-1\"\n"),
    DatasetOptionCase("line --velocity 0,0 -", #"{"options":{"velocity":"1e999,0"},"count":2}"#, 65,
                      "cvlayout: error: <stdin>: options.velocity: expected finite numbers\n"),
    DatasetOptionCase("ring --heart-samples 3 -", #"{"options":{"heart-samples":2000000},"rings":[1,2]}"#, 65,
                      "cvlayout: error: <stdin>: options.heart-samples: expected an integer from 1 to 1000000, got 2000000\n"),
    DatasetOptionCase("ring --heart-from 0:0 -", #"{"options":{"heart-from":"0:x"},"rings":[1,2]}"#, 65,
                      "cvlayout: error: <stdin>: options.heart-from: expected S:I or I, non-negative integers, got \"0:x\"\n"),
    DatasetOptionCase("flow --item-size 5 -", #"{"options":{"item-size":"5x"},"count":2}"#, 65,
                      "cvlayout: error: <stdin>: options.item-size: expected W,H or one number, got \"5x\"\n"),
    DatasetOptionCase("flow --alignment center -", #"{"options":{"alignment":"middle"},"count":2}"#, 65,
                      "cvlayout: error: <stdin>: options.alignment: expected one of justified, leading, center, trailing, got \"middle\"\n"),
    DatasetOptionCase("carousel --standard-alpha 0.3 -", #"{"options":{"standard-alpha":3},"count":2}"#, 65,
                      "cvlayout: error: <stdin>: options.standard-alpha: expected a number from 0 to 1, got 3\n"),
    DatasetOptionCase("stack --angles 3 -", #"{"options":{"angles":"1,x"},"count":2}"#, 65,
                      "cvlayout: error: <stdin>: options.angles: expected comma-separated degrees, got \"1,x\"\n"),
    DatasetOptionCase("stack --angles 3 -", #"{"options":{"angles":"1e999"},"count":2}"#, 65,
                      "cvlayout: error: <stdin>: options.angles: expected finite angles, got \"1e999\"\n"),
    DatasetOptionCase("circle --direction clockwise -", #"{"options":{"direction":"sideways"},"count":2}"#, 65,
                      "cvlayout: error: <stdin>: options.direction: expected one of clockwise, counterclockwise, got \"sideways\"\n"),
    DatasetOptionCase("circle --center-single -", #"{"options":{"center-single":1},"count":2}"#, 65,
                      "cvlayout: error: <stdin>: options.center-single: expected true or false, got 1\n"),
    // Overridden values that are well formed, only unusable with others or with the data,
    // are not used: the command line's run succeeds.
    DatasetOptionCase("ring --heart-to 0:0 -", #"{"options":{"heart-to":"1:1"},"rings":[1,2]}"#, 0, ""),
    DatasetOptionCase("waterfall --item 0:0 -", #"{"options":{"item":"9:9"},"heights":[1]}"#, 0, ""),
    DatasetOptionCase("waterfall --columns 2 -", #"{"options":{"columns":100},"heights":[1]}"#, 0, ""),
    DatasetOptionCase("ring --radius 5 -", #"{"options":{"radius":50},"rings":[1,2]}"#, 0, ""),
    // A flag beats the dataset's options it replaces, where the two would conflict.
    DatasetOptionCase("ring --no-heart -", #"{"options":{"heart-samples":3},"rings":[1,2]}"#, 0, ""),
    DatasetOptionCase("ring --heart-samples 3 -", #"{"options":{"no-heart":true},"rings":[1,2]}"#, 0, ""),
    DatasetOptionCase("waterfall --item 0:0 -", #"{"options":{"rect":"0,0,1,1"},"heights":[1]}"#, 0, ""),
    DatasetOptionCase("waterfall --rect 0,0,1,1 -", #"{"options":{"item":"0:0"},"heights":[1]}"#, 0, ""),
    DatasetOptionCase("waterfall --visible -", #"{"options":{"item":"0:0"},"heights":[1]}"#, 0, ""),
    DatasetOptionCase("waterfall --no-labels -", #"{"options":{"labels":"item"},"heights":[1]}"#, 0, ""),
    // ... and a replaced value that is malformed is still bad data.
    DatasetOptionCase("waterfall --device iPhone-15 -", #"{"options":{"width":"wide"},"heights":[1]}"#, 65,
                      "cvlayout: error: <stdin>: options.width: expected a number, got \"wide\"\n"),
]

struct DatasetOptionTests {
    /// `--device` on the command line beats the dataset's `"width"` and `"height"`; the
    /// dataset's `"device"` gives way to `--width`.
    @Test func aFlagBeatsTheDatasetsWidth() {
        let dataset = #"{"heights": [10], "options": {"width": 100, "height": 50}}"#
        let device = run(arguments: ["waterfall", "--device", "iPhone 15", "-"]) { Data(dataset.utf8) }
        #expect(device.stdoutText.hasPrefix(#"{"engine":"waterfall","bounds":{"width":393,"height":852}"#), "\(device.stdoutText.prefix(80))")
        let width = run(arguments: ["waterfall", "--width", "200", "-"]) { Data(#"{"heights": [10], "options": {"device": "iPhone 15"}}"#.utf8) }
        #expect(width.stdoutText.hasPrefix(#"{"engine":"waterfall","bounds":{"width":200,"height":852}"#), "\(width.stdoutText.prefix(80))")
        let plain = run(arguments: ["waterfall", "-"]) { Data(dataset.utf8) }
        #expect(plain.stdoutText.hasPrefix(#"{"engine":"waterfall","bounds":{"width":100,"height":50}"#))
    }

    @Test(arguments: datasetOptionCases)
    func datasetOptionsAreBadDataWhereverTheConflictIs(_ case_: DatasetOptionCase) {
        let result = run(arguments: case_.arguments, stdin: { Data(case_.dataset.utf8) })
        #expect(result.status == case_.status, "\(result.stderr)")
        #expect(result.stderr == case_.stderr)
        if case_.status == 0 {
            #expect(result.stdoutText.hasPrefix("{\"engine\":"))
        } else {
            #expect(result.stdout.isEmpty)
        }
    }

    /// `--check` with an element CSV and `--heart-samples` from the dataset's options: bad data
    /// naming `options.heart-samples`; from the flag: a usage error, as before.
    @Test func checkConflictsWithDatasetHeartSamplesAreBadData() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cvlayout-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let golden = dir.appendingPathComponent("ring.csv").path
        #expect(run(arguments: ["ring", "-f", "csv", "-o", golden]).status == 0)
        let message = "--check: with --heart-samples the CSV is a table of samples, and GOLDEN one of elements; "
            + "compare with a JSON golden or a CSV of samples"
        let fromDataset = run(arguments: ["ring", "--check", golden, "-"],
                              stdin: { Data(#"{"options":{"heart-samples":3},"rings":[1,6,12,18]}"#.utf8) })
        #expect(fromDataset.status == 65)
        #expect(fromDataset.stdout.isEmpty)
        #expect(fromDataset.stderr == "cvlayout: error: <stdin>: options.heart-samples: \(message)\n")
        let fromFlag = run(arguments: ["ring", "--heart-samples", "3", "--check", golden])
        #expect(fromFlag.status == 64)
        #expect(fromFlag.stderr == "cvlayout: error: \(message)\nRun 'cvlayout ring --help' for usage.\n")
    }

    /// A transition's sides read the dataset's options as an engine does.
    @Test func aTransitionSideReportsTheDatasetsConflictAsBadData() {
        let result = run(arguments: ["transition", "--from", "ring", "--to", "circle", "-"],
                         stdin: { Data(#"{"options":{"heart-to":"1:1"},"rings":[1,2]}"#.utf8) })
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "cvlayout: error: <stdin>: options.heart-to: 1:1: the seed style always ends at the centre, 0:0 (--heart-style smooth goes to any avatar)\n")
    }

    /// The same through the executable, as the issue reported it.
    @Test func theIssuesCommandExits65WithoutAUsageLine() throws {
        let cvlayout = try #require(builtCvlayout)
        let result = try runProcess("/bin/sh", ["-c", "printf '%s' \"$1\" | \"$0\" ring -", cvlayout.path,
                                                #"{"options":{"heart-to":"1:1"},"rings":[1,2]}"#])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "cvlayout: error: <stdin>: options.heart-to: 1:1: the seed style always ends at the centre, 0:0 (--heart-style smooth goes to any avatar)\n")
    }
}

struct BadInputTests {
    /// Runs `body` with `case_`'s arguments, `DATA` replaced by a temporary file holding its
    /// dataset.
    func withArguments(of case_: BadInput, _ body: ([String]) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cvlayout-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dataPath = directory.appendingPathComponent("data.json").path
        if let dataset = case_.dataset { try Data(dataset.utf8).write(to: URL(fileURLWithPath: dataPath)) }
        try body(case_.arguments.split(separator: " ").map { $0 == "DATA" ? dataPath : String($0) })
    }

    @Test(arguments: badInputs)
    func badInputIsRefusedWithOneLine(_ case_: BadInput) throws {
        try withArguments(of: case_) { arguments in
            let result = run(arguments: arguments)
            #expect(result.status == case_.status, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains(case_.message), "\(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.first?.hasPrefix("cvlayout: error: ") == true)
            if case_.status == 64 {
                #expect(lines.count == 2 && lines[1].hasPrefix("Run 'cvlayout ") && lines[1].hasSuffix("--help' for usage."))
            } else {
                #expect(lines.count == 1, "\(result.stderr)")
            }
            for bad in ["NaN", "Fatal", "Swift/", "Stack dump"] { #expect(!result.stderr.contains(bad)) }
        }
    }

    /// A waterfall CSV is vouched for without laying out (no content size to show): it
    /// refuses every layout the JSON refuses, with the same status and message, and writes
    /// nothing.
    @Test(arguments: badInputs.filter { $0.arguments.hasPrefix("waterfall") && $0.status == 65 } + [
        BadInput("waterfall --columns 40 --column-spacing 10", nil, 65, "columns"),
        BadInput("waterfall --header-height 10 --header-insets 0,200,0,200", nil, 65, "header"),
        BadInput("waterfall --columns 1 --item-height 1e308 DATA", "{\"count\": 4}", 65, "not finite"),
        BadInput("waterfall --scale 1e307 --count 3", nil, 65, "not finite"),
    ])
    func csvRefusesWhatJSONRefuses(_ case_: BadInput) throws {
        try withArguments(of: case_) { arguments in
            let json = run(arguments: arguments + ["-f", "json"])
            let csv = run(arguments: arguments + ["-f", "csv"])
            #expect(json.status == case_.status && csv.status == case_.status, "\(json.stderr) \(csv.stderr)")
            #expect(csv.stderr == json.stderr)
            #expect(csv.stderr.contains(case_.message), "\(csv.stderr)")
            #expect(csv.stdout.isEmpty && json.stdout.isEmpty)
        }
    }

    @Test func theTableIsLargeAndCoversEveryStatus() {
        #expect(badInputs.count >= 60)
        #expect(Set(badInputs.map(\.status)) == [64, 65, 66, 73])
    }
}

/// Dataset messages name the keys the engine reads, and Flickr's own input is a list of sizes.
struct EngineDatasetKeyTests {
    @Test(arguments: [
        ("justified", #"{"foo": 1}"#, "foo: unknown key (expected 'heights', 'sizes', 'count', 'sections' or 'options')"),
        ("justified", #"{"sections": [{"foo": 1}]}"#,
         "sections[0].foo: unknown key; did you mean 'footer'? (expected 'heights', 'sizes', 'count', 'header', 'footer' or 'insets')"),
        ("flow", #"{"heights": [1], "count": 2}"#, "count: conflicts with 'heights': give only one of 'heights', 'sizes', 'count' or 'sections'"),
        ("stack", #"{"sections": [{"foo": 1}]}"#, "sections[0].foo: unknown key (expected 'heights', 'sizes' or 'count')"),
        ("waterfall", #"{"foo": 1}"#, "foo: unknown key (expected 'heights', 'sizes', 'items', 'count', 'sections' or 'options')"),
        ("ring", #"{"heights": [1]}"#, "heights: unknown key (expected 'rings' or 'options')"),
        ("justified", #""x""#, #"(top level): expected an array of heights, [width, height] sizes or {"width": W, "height": H} objects, "#
         + "or an object of 'heights', 'sizes', 'count', 'sections' or 'options', got \"x\""),
        ("justified", #"[{"width": 3, "height": 2, "url": "a.jpg"}]"#, "[0].url: unknown key (expected 'width' and 'height')"),
        ("justified", #"[{"width": 3}]"#, #"[0]: expected a size {"width": W, "height": H}, got no 'height'"#),
    ])
    func messagesNameTheEnginesKeys(engine: String, dataset: String, message: String) {
        let result = run(arguments: [engine, "-"], stdin: { Data(dataset.utf8) })
        #expect(result.status == 65)
        #expect(result.stderr == "cvlayout: error: <stdin>: \(message)\n")
    }

    /// `[{"width": w, "height": h}, …]`, as flickr/justified-layout takes it: aspect w ÷ h.
    @Test func justifiedTakesFlickrsInput() {
        let flickr = run(arguments: ["justified", "-f", "csv", "-"]) {
            Data(#"[{"width": 400, "height": 300}, {"width": 300, "height": 400}, {"width": 500, "height": 500}]"#.utf8)
        }
        let ratios = run(arguments: ["justified", "-f", "csv", "-"]) { Data("[1.3333333333333333, 0.75, 1]".utf8) }
        #expect(flickr.status == 0 && flickr.stdout == ratios.stdout, "\(flickr.stderr)")
        #expect(flickr.stdoutText.split(separator: "\n").count == 4)
    }
}

/// Insets read the same everywhere: a number, "T,L,B,R", [T, L, B, R] and an object of
/// top/left/bottom/right (leading/trailing), in options, sections, descriptions and flags.
struct InsetsSpellingTests {
    static let spellings = [#""4,3,2,1""#, "[4, 3, 2, 1]", #"{"top": 4, "left": 3, "bottom": 2, "right": 1}"#,
                            #"{"top": 4, "leading": 3, "bottom": 2, "trailing": 1}"#]

    @Test func everySpellingInEveryPlace() {
        func csv(_ engine: String, _ dataset: String, _ flags: [String] = []) -> String {
            let result = run(arguments: [engine, "-f", "csv"] + flags + ["-"]) { Data(dataset.utf8) }
            #expect(result.status == 0, "\(engine) \(dataset): \(result.stderr)")
            return result.stdoutText
        }
        for engine in ["waterfall", "flow", "justified"] {
            let byFlag = run(arguments: [engine, "-f", "csv", "--insets", "4,3,2,1", "-"]) { Data("[1, 2, 3]".utf8) }.stdoutText
            #expect(!byFlag.isEmpty)
            for spelling in Self.spellings {
                #expect(csv(engine, #"{"heights": [1, 2, 3], "options": {"insets": \#(spelling)}}"#) == byFlag, "\(engine) options \(spelling)")
                #expect(csv(engine, #"{"sections": [{"heights": [1, 2, 3], "insets": \#(spelling)}]}"#) == byFlag, "\(engine) section \(spelling)")
            }
            #expect(run(arguments: [engine, "-f", "csv", "--insets", "[4, 3, 2, 1]", "-"]) { Data("[1, 2, 3]".utf8) }.stdoutText == byFlag)
            // One number: all four, in each place.
            let all = run(arguments: [engine, "-f", "csv", "--insets", "5", "-"]) { Data("[1, 2, 3]".utf8) }.stdoutText
            #expect(csv(engine, #"{"heights": [1, 2, 3], "options": {"insets": 5}}"#) == all)
            #expect(csv(engine, #"{"sections": [{"heights": [1, 2, 3], "insets": 5}]}"#) == all)
        }
        // A compositional description's contentInsets.
        func description(_ insets: String) -> String {
            #"{"sections": [{"count": 2, "contentInsets": \#(insets), "group": {"horizontal": {"layoutSize": "#
                + #"{"width": "fractionalWidth(1)", "height": "absolute(50)"}, "subitems": [{"item": {"layoutSize": "#
                + #"{"width": "fractionalWidth(0.5)", "height": "fractionalHeight(1)"}}}]}}}]}"#
        }
        let reference = csv("compositional", description("[4, 3, 2, 1]"))
        for spelling in Self.spellings { #expect(csv("compositional", description(spelling)) == reference, "\(spelling)") }
        #expect(csv("compositional", description("5")) == csv("compositional", description("[5, 5, 5, 5]")))
    }

    @Test func badSpellingsNameWhatIsWrong() {
        let both = run(arguments: ["waterfall", "-"]) { Data(#"{"heights": [1], "options": {"insets": {"left": 1, "leading": 2}}}"#.utf8) }
        #expect(both.stderr == "cvlayout: error: <stdin>: options.insets.leading: give 'left' or 'leading', not both\n")
        let typo = run(arguments: ["waterfall", "-"]) { Data(#"{"sections": [{"heights": [1], "insets": {"tpo": 1}}]}"#.utf8) }
        #expect(typo.stderr == "cvlayout: error: <stdin>: sections[0].insets.tpo: unknown key; did you mean 'top'? "
                + "(expected 'top', 'left', 'bottom', 'right', 'leading' or 'trailing')\n")
    }
}
