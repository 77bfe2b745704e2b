/// Imports a file of Bacon's text output (SpecDox, Knock or Test::Unit style) through
/// ``BaconOutputParser``; what was odd about the output becomes warnings naming the input.
public typealias BaconImporter = StreamingImporter<BaconOutputParser>
