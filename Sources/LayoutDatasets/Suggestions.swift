// Suggestions for misspelt names: command-line flags and engines (CVLayoutCLI) and dataset
// keys (`Dataset`), so that every "unknown" message can add "did you mean".

/// The nearest of `candidates` to `word` by edit distance, when close enough to be a typo.
/// - Complexity: O(|word| · Σ|candidate|); a word over 64 bytes is never a typo of a name.
public func nearest(_ word: String, among candidates: [String]) -> String? {
    guard word.utf8.count <= 64 else { return nil }
    var best: (String, Int)? = nil
    for candidate in candidates {
        let d = editDistance(word, candidate)
        if d < (best?.1 ?? Int.max) { best = (candidate, d) }
    }
    guard let (candidate, distance) = best else { return nil }
    let limit = max(1, min(3, candidate.count / 3))
    if distance <= limit { return candidate }
    // A prefix (`--col` for `--columns`) also counts.
    if word.count >= 3, candidate.hasPrefix(word) { return candidate }
    return nil
}

/// Edit distance with adjacent transpositions (optimal string alignment): insertions,
/// deletions, substitutions and swaps of two neighbours each cost 1, so `conut` is one edit
/// from `count`, the most common typo. - Complexity: O(|a|·|b|).
public func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
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
