/// A ``DaemonRequest`` as the wire carries it: one JSON object of `version`, `type` and the fields of
/// that type, each optional until ``validated()`` checks that the type's are there.
///
/// Encoding leaves out the fields a request does not have; `jobs` always carries `all`, and `logs`
/// carries `stream` only when it is true.
struct DaemonRequestFields: Codable, Sendable {
    /// Always ``DaemonProtocol/version``.
    var version: Int
    /// What the request asks for.
    var type: DaemonRequest.Kind
    /// For `submit`.
    var submission: DaemonRequest.Submission?
    /// For `jobs`: include finished jobs.
    var all: Bool?
    /// For `cancel` and `logs`: the job id.
    var id: String?
    /// For `cancel`: every job with this tag.
    var tag: String?
    /// For `cancel`: the unfinished job with this unique key.
    var uniqueKey: String?
    /// For `setCondition`: the condition's name.
    var name: String?
    /// For `setCondition`: whether it holds.
    var on: Bool?
    /// For `logs`: send the runs as ``LogStreamLine``s after the first response line, instead of all in
    /// that line.
    var stream: Bool?

    /// The fields of `request`, of the current version.
    init(_ request: DaemonRequest) {
        version = DaemonProtocol.version
        switch request {
        case .submit(let submission):
            type = .submit
            self.submission = submission
        case .jobs(let all):
            type = .jobs
            self.all = all
        case .cancel(let selector):
            type = .cancel
            switch selector {
            case .id(let id): self.id = id
            case .tag(let tag): self.tag = tag
            case .uniqueKey(let key): uniqueKey = key
            }
        case .logs(let id, let stream):
            type = .logs
            self.id = id
            self.stream = stream ? true : nil
        case .setCondition(let name, let on):
            type = .setCondition
            self.name = name
            self.on = on
        }
    }

    /// The request these fields make, after checking the fields its type needs and every value against
    /// ``DaemonLimits``.
    ///
    /// Durations are read as the command line reads them (``DurationParser``) and range-checked here, so
    /// nothing later does arithmetic on an unchecked number: `every` is at least
    /// ``DaemonLimits/minimumPeriod``, `flex` is positive and shorter than `every`, `retries` is from 0 to
    /// 1000. Labels (name, tags, conditions, keys, ids) follow ``DaemonLimits/labelProblem(_:)``; the
    /// command's arguments and directory carry no NUL byte.
    ///
    /// - Throws: ``DaemonProtocolError`` naming the field and the value.
    func validated() throws(DaemonProtocolError) -> DaemonRequest {
        switch type {
        case .submit:
            guard let submission else { throw DaemonProtocolError("request 'submit' has no field 'submission'") }
            try submission.validate()
            return .submit(submission)
        case .jobs:
            return .jobs(all: all ?? false)
        case .cancel:
            let given: [DaemonRequest.CancelSelector] = [
                id.map { .id($0) }, tag.map { .tag($0) }, uniqueKey.map { .uniqueKey($0) },
            ]
            .compactMap { $0 }
            guard given.count == 1 else {
                throw DaemonProtocolError("request 'cancel' needs exactly one of 'id', 'tag', 'uniqueKey'")
            }
            guard !given[0].value.isEmpty else { throw DaemonProtocolError("request 'cancel' has an empty selector") }
            try DaemonRequest.checkLabel(given[0].value, field: given[0].field)
            return .cancel(given[0])
        case .logs:
            guard let id, !id.isEmpty else { throw DaemonProtocolError("request 'logs' has no field 'id'") }
            try DaemonRequest.checkLabel(id, field: "id")
            return .logs(id: id, stream: stream ?? false)
        case .setCondition:
            guard let name, !name.isEmpty else {
                throw DaemonProtocolError("request 'setCondition' has no non-empty field 'name'")
            }
            try DaemonRequest.checkLabel(name, field: "name")
            guard let on else { throw DaemonProtocolError("request 'setCondition' has no field 'on'") }
            return .setCondition(name: name, on: on)
        }
    }
}

extension DaemonRequest.CancelSelector {
    /// The wire field that carries the selector.
    var field: String {
        switch self {
        case .id: "id"
        case .tag: "tag"
        case .uniqueKey: "uniqueKey"
        }
    }
}
