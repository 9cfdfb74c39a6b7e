// "Did you mean" for misspelt flags, engines (CVLayoutCLI) and dataset keys.

/// The nearest of `candidates` to `word` by edit distance, when close enough to be a typo.
/// - Complexity: O(|word| · Σ|candidate|); a word over 64 bytes is never a typo of a name.
public func nearest(_ word: String, among candidates: [String]) -> String? {
    guard word.utf8.count <= 64,
          let (candidate, distance) = candidates.map({ ($0, editDistance(word, $0)) }).min(by: { $0.1 < $1.1 }) else { return nil }
    // Close enough, or a prefix (`--col` for `--columns`).
    return distance <= max(1, min(3, candidate.count / 3)) || (word.count >= 3 && candidate.hasPrefix(word)) ? candidate : nil
}

/// Edit distance with adjacent transpositions (optimal string alignment): insertions,
/// deletions, substitutions and swaps of two neighbours each cost 1, so `conut` is one edit
/// from `count`, the most common typo. - Complexity: O(|a|·|b|).
public func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in stride(from: 1, through: a.count, by: 1) {  // none when a is empty, as for j
        current[0] = i
        for j in stride(from: 1, through: b.count, by: 1) {
            current[j] = min(previous[j] + 1, current[j - 1] + 1,
                             previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                current[j] = min(current[j], beforePrevious[j - 2] + 1)
            }
        }
        (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
}
