import Testing
@testable import CVLayoutCLI

/// `PassMemo`: a value is made once per run and key; a throw keeps nothing; keys of the same
/// type are told apart; another run's memo makes its own.
struct PassMemoTests {
    static let first = PassMemo.Key<[Int]>("first"), second = PassMemo.Key<[Int]>("second")
    static let text = PassMemo.Key<String>("text")

    struct Refused: Error, Equatable {}

    @Test func valuesAreMadeOncePerKey() throws {
        let memo = PassMemo()
        var made = 0
        #expect(memo.value(Self.first) { made += 1; return [1, 2] } == [1, 2])
        #expect(memo.value(Self.first) { made += 1; return [3] } == [1, 2])
        #expect(memo.value(Self.second) { made += 1; return [3] } == [3])
        #expect(memo.value(Self.text) { made += 1; return "a" } == "a")
        #expect(made == 3)
        // A throw keeps nothing: the next pass makes the value (or throws) again.
        #expect(throws: Refused()) { try memo.value(PassMemo.Key<Int>("refused")) { throw Refused() } }
        let key = PassMemo.Key<Int>("later")
        #expect(throws: Refused()) { try memo.value(key) { throw Refused() } }
        #expect(memo.value(key) { 7 } == 7)
        // Another run, another memo.
        #expect(PassMemo().value(Self.first) { [9] } == [9])
    }
}
