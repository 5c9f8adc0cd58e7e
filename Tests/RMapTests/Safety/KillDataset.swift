import Foundation

/// Two versions of one data set, large enough that `rmap run` spends a
/// while writing it: people and their tasks, each task connected to its
/// owner by a foreign key and to its watchers by a list of ids (a join
/// table). Both versions have the same identities; every value differs, so
/// a run of one over the other rewrites every row, base row and link.
///
/// Files, in `directory`: `v1.yml` and `v2.yml` (the same model, each
/// reading its own version), `v1/people.json`, `v1/tasks.json`, and the same
/// under `v2/`.
struct KillDataset {
    /// The directory holding the mapping files and the payloads.
    let directory: URL
    /// The people per version; each has four tasks.
    let people: Int

    /// Writes both versions into `directory`.
    init(directory: URL, people: Int) throws {
        self.directory = directory
        self.people = people
        for version in 1...2 {
            try write("v\(version).yml", mapping(version))
            let folder = directory.appendingPathComponent("v\(version)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try write("v\(version)/people.json", peopleJSON(version))
            try write("v\(version)/tasks.json", tasksJSON(version))
        }
    }

    /// The mapping file of a version (1 or 2).
    func mappingPath(_ version: Int) -> String {
        directory.appendingPathComponent("v\(version).yml").path
    }

    private func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }

    private func mapping(_ version: Int) -> String {
        """
        rmap: 1
        source: { plugin: file, path: "v\(version)/{collection}.json" }
        entities:
          Person:
            attributes: { id: int, name: string, email: string, score: double, bornOn: date }
          Task:
            attributes: { id: int, title: string, done: bool, personId: int, watcherIds: [int], dueAt: datetime }
            relationships:
              owner: { to_one: Person, connect: { foreign_key: { personId: id } } }
              watchers: { to_many: Person, connect: { foreign_key: { watcherIds: id } } }

        """
    }

    private func peopleJSON(_ version: Int) -> String {
        let records = (1...people).map { id in
            #"{"id": \#(id), "name": "Person \#(id) v\#(version)", "email": "p\#(id)-v\#(version)@example.com", "#
                + #""score": \#(Double(id * version) / 8), "born_on": "19\#(50 + (id + version) % 50)-0\#(1 + id % 9)-1\#(version)"}"#
        }
        return "[\n" + records.joined(separator: ",\n") + "\n]\n"
    }

    private func tasksJSON(_ version: Int) -> String {
        let records = (1...(people * 4)).map { id in
            let owner = 1 + (id * version) % people
            let watchers = [owner, 1 + (owner + version) % people].map(String.init).joined(separator: ", ")
            return #"{"id": \#(id), "title": "Task \#(id) v\#(version)", "done": \#(version == 2), "#
                + #""person_id": \#(owner), "watcher_ids": [\#(watchers)], "due_at": "2025-0\#(version)-01T10:00:00Z"}"#
        }
        return "[\n" + records.joined(separator: ",\n") + "\n]\n"
    }
}
