#if Txkit
import SwiftSyntax

extension SyntaxProtocol {
    /// The nearest ancestor of type `T` below `limit` (this node excluded).
    func ancestor<T: SyntaxProtocol>(_ type: T.Type, below limit: Syntax) -> T? {
        var node = parent
        while let current = node, current.id != limit.id {
            if let match = current.as(T.self) { return match }
            node = current.parent
        }
        return nil
    }

    /// This node if it is a `T`, else ``ancestor(_:below:)``.
    func ancestorOrSelf<T: SyntaxProtocol>(_ type: T.Type, below limit: Syntax) -> T? {
        if let match = self.as(T.self) { return match }
        return ancestor(type, below: limit)
    }
}
#endif
