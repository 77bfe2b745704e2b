/// The activity the running code is inside, carried down tasks and closures.
enum ActivityScope {
    @TaskLocal static var current: String?
}
