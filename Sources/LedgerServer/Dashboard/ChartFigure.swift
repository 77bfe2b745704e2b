/// The frame every dashboard chart is drawn in: a figure of class `kind` holding an SVG of
/// `width` × `height`, labelled by `words` for a screen reader and captioned with them.
enum ChartFigure {
    static func render(_ kind: String, width: Double, height: Double, words: String, _ content: HTML) -> HTML {
        """
        <figure class="\(kind)"><svg viewBox="0 0 \(PyramidSVG.number(width)) \(PyramidSVG.number(height))" \
        width="\(PyramidSVG.number(width))" height="\(PyramidSVG.number(height))" role="img" \
        aria-label="\(words)" xmlns="http://www.w3.org/2000/svg">\(content)</svg>\
        <figcaption class="muted">\(words)</figcaption></figure>
        """
    }
}
