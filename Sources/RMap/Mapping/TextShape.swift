import Foundation

/// Checks the text of `uuid` and `url` values, which ``ValueConverter`` keeps as strings.
package enum TextShape {
    /// True when `value` (a string, or an array of them) has the shape `type` asks for;
    /// values of other types pass.
    package static func isValid(_ value: Value, as type: AttributeType) -> Bool {
        switch (value, type) {
        case (.string(let text), .uuid): UUID(uuidString: text) != nil
        case (.string(let text), .url): !text.isEmpty && URL(string: text, encodingInvalidCharacters: false) != nil
        case (.array(let items), .array(let element)): items.allSatisfy { isValid($0, as: element) }
        default: true
        }
    }

    /// True for the types whose text is checked.
    static func isChecked(_ type: AttributeType) -> Bool {
        switch type {
        case .uuid, .url, .array(.uuid), .array(.url): true
        default: false
        }
    }
}
