/// How lines shape the stream: subtests opening and closing, plans, versions, bail-outs and
/// YAML blocks.
extension TAPParser {
    /// The deepest open level: 0 at the top of the document.
    var depth: Int { frames.count - 1 }

    /// `# Subtest: name` at `level`. At the parent's indentation (the TAP14 spec, node:test) it
    /// announces the subtest opening one level deeper; at the child's (node-tap) it opens it.
    mutating func subtest(named name: String?, level: Int) {
        if level > depth, let announced = announcement, announced.level == depth + 1 {
            openSubtests(upTo: depth + 1)
        }
        if level > depth {
            announcement = TAPSubtestAnnouncement(name: name, level: level)
            openSubtests(upTo: level)
        } else {
            closeSubtests(deeperThan: level)
            announcement = TAPSubtestAnnouncement(name: name, level: level + 1)
        }
    }

    /// A plan at `level`: the plan of the document or of the subtest there.
    mutating func plan(_ plan: TAPPlan, level: Int) {
        if level > depth {
            openSubtests(upTo: level)
        } else {
            closeSubtests(deeperThan: level)
        }
        if frames[level].plan != nil {
            note(line: lineNumber, "a second plan at this level; the first one counts")
        } else {
            frames[level].plan = plan
        }
    }

    /// `TAP version N` at the top.
    mutating func version(_ version: Int?) {
        sawTAP = true
        guard let version, (13...14).contains(version) else {
            note(line: lineNumber, "unknown TAP version; read as TAP 14")
            return
        }
    }

    /// `Bail out!`: the rest of the stream is ignored and the run stays interrupted.
    mutating func bailOut(_ reason: String?) {
        sawTAP = true
        bailedOut = true
        runFailed = true
        note(line: lineNumber, "Bail out!\(reason.map { " \($0)" } ?? ""): the run stopped here; it has no end")
        closeSubtests(deeperThan: 0)
    }

    /// A `prove -v` file header: the document before it ends and one named `file` begins.
    mutating func startDocument(_ file: String) {
        closeSubtests(deeperThan: 0)
        if frames[0].name != nil || frames[0].plan != nil || frames[0].points > 0 { finishDocument() }
        frames = [TAPFrame(id: 0, level: 0, name: file, line: lineNumber)]
    }

    /// Opens subtests until `level` is open; the one the announcement names gets its name.
    mutating func openSubtests(upTo level: Int) {
        while depth < level {
            var name: String?
            if let announced = announcement, announced.level == depth + 1 {
                name = announced.name
                announcement = nil
            }
            let frame = TAPFrame(id: nextFrameID, level: depth + 1, name: name, line: lineNumber)
            nextFrameID += 1
            if let name { frameNames[frame.id] = name }
            frames.append(frame)
        }
    }

    /// Closes the subtests deeper than `level` that no test point closed: the stream went on
    /// at a shallower level, or ended.
    mutating func closeSubtests(deeperThan level: Int) {
        while depth > level {
            let frame = frames.removeLast()
            let name = frame.name ?? "subtest"
            if frame.name == nil { frameNames[frame.id] = name }
            note(line: frame.line, "subtest '\(name)' has no test point closing it")
            checkPlan(of: frame, named: name)
        }
    }

    /// Closes the subtest one level below `level` with the test point that ends it, named
    /// `description`.
    /// - Returns: whether it had tests of its own (it is a suite), and whether one failed.
    mutating func closeSubtest(below level: Int, description: String) -> (hadTests: Bool, failed: Bool) {
        closeSubtests(deeperThan: level + 1)
        let frame = frames.removeLast()
        let name = frame.name ?? (description.isEmpty ? "subtest" : description)
        if frame.name == nil { frameNames[frame.id] = name }
        checkPlan(of: frame, named: name)
        return (frame.points > 0, frame.failedBelow)
    }

    /// Notes a subtest whose plan its tests did not meet.
    mutating func checkPlan(of frame: TAPFrame, named name: String) {
        guard let plan = frame.plan, plan.count != frame.points else { return }
        note(line: frame.line, "subtest '\(name)' planned \(plan.count) tests and ran \(frame.points)")
    }

    /// Reads `line` as part of the YAML block being read, if any.
    /// - Returns: whether the line belonged to the block.
    mutating func continueYAML(_ line: Substring) -> Bool {
        guard var block = yaml else { return false }
        let content = TAPText.trimmed(line)
        let indentation = TAPText.indentation(of: line)
        if content.isEmpty {
            block.append("")
        } else if indentation < block.indentation {
            note(line: block.line, "the YAML block ended without `...`; kept what was read")
            closeYAML()
            return false
        } else if content == "...", indentation == block.indentation {
            yaml = block
            closeYAML()
            return true
        } else {
            block.append(line.dropFirst(block.indentation))
        }
        yaml = block
        return true
    }

    /// Gives the YAML block read to the pending test point.
    mutating func closeYAML() {
        guard let block = yaml else { return }
        yaml = nil
        if block.truncated {
            note(line: block.line, "the YAML block is longer than \(TAPYAMLBlock.limit >> 10) KB; kept its start")
        }
        pending?.yaml = block.lines
    }
}
