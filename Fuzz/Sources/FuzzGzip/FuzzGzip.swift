import FuzzSupport
import NIOCore

/// The server's gzip request reader (GzipInflater.swift is the server's own file) on any bytes,
/// cut into chunks of a size the first byte chooses, with output bounded as the server bounds it.
@_cdecl("fuzzGzip") public func fuzzOne(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes, count > 0 else { return 0 }
    let chunk = Int(bytes[0]) + 1
    let body = UnsafeBufferPointer(start: bytes + 1, count: count - 1)
    var total = 0
    do {
        let inflater = try GzipInflater()
        let keep: (ByteBuffer) throws -> Void = { buffer in
            total += buffer.readableBytes
            if total > 8 << 20 { throw Limit() }
        }
        var offset = 0
        while offset < body.count {
            let end = min(offset + chunk, body.count)
            try inflater.inflate(ByteBuffer(bytes: body[offset..<end]), into: keep)
            offset = end
        }
        try inflater.end(into: keep)
    } catch {}
    return 0
}

struct Limit: Error {}

@_cdecl("FuzzGzip_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { fuzzOne($0, $1) }
}
