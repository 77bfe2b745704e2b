import Foundation

extension SyntheticHistory {
    /// Writes the Ledger event stream of runs whose tests ran side by side in `workers` processes,
    /// as parallel testing's clones run them: test `n` in process `n % workers`, each process one
    /// test after another, every test 2 ms; the same outcomes as ``writeLedgerStream(to:)``.
    /// - Returns: the number of results written.
    @discardableResult
    func writeParallelStream(to url: URL, workers: Int) throws -> Int {
        let writer = try BufferedWriter(url: url)
        var results = 0
        for run in 0..<runs {
            let runID = String(format: "00000000-0000-4000-a000-%012x", run)
            let began = startOfRun(run)
            writer.write(runStart(runID, run: run, at: began))
            for test in 0..<tests {
                let id = "\(layerName(test)).Suite\(test / 20)/test\(test)()"
                let at = began + Double(test / workers) * 0.002
                let outcome = outcome(test: test, run: run).rawValue
                writer.write(
                    #"{"v":1,"type":"test.start","run":"\#(runID)","at":\#(at),"test":"\#(id)","attempt":1,"process":\#(100 + test % workers)}"#
                        + "\n")
                writer.write(
                    #"{"v":1,"type":"test.end","run":"\#(runID)","at":\#(at + 0.002),"test":"\#(id)","attempt":1,"outcome":"\#(outcome)","duration":0.002}"#
                        + "\n")
                results += 1
            }
            writer.write(
                #"{"v":1,"type":"run.end","run":"\#(runID)","at":\#(began + Double(tests / workers + 1) * 0.002)}"#
                    + "\n")
        }
        try writer.close()
        return results
    }
}
