extension String {
    /// The text cut to its first 4 KB of UTF-8, whole characters only, ending in `…` when cut:
    /// a failure's message or backtrace as the store keeps it.
    var clipped: String {
        let limit = 4 << 10
        guard utf8.count > limit else { return self }
        var kept = ""
        var bytes = 0
        for character in self {
            bytes += character.utf8.count
            guard bytes <= limit else { break }
            kept.append(character)
        }
        return kept + "…"
    }
}
