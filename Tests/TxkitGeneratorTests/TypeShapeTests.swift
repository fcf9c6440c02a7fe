#if Txkit
import Testing
import TxkitGenerator

/// What the generator reads from a written type once, instead of searching
/// its text.
@Suite("Type shapes")
struct TypeShapeTests {
    @Test func closuresAreFoundWhereverAFunctionTypeAppears() {
        #expect(TypeShape(parsing: "@escaping (Int) -> Void").mentionsFunction)
        #expect(TypeShape(parsing: "((Row) throws -> T)?").mentionsFunction)
        #expect(TypeShape(parsing: "[String: () -> Void]").mentionsFunction)
        #expect(!TypeShape(parsing: "Result<Int, Error>").mentionsFunction)
    }

    @Test func optionalsAreReadThroughAttributesAndParentheses() {
        #expect(TypeShape(parsing: "Database?").isOptional)
        #expect(TypeShape(parsing: "Database!").isOptional)
        #expect(TypeShape(parsing: "(Database?)").isOptional)
        #expect(!TypeShape(parsing: "[Database?]").isOptional)
        #expect(!TypeShape(parsing: "Database").isOptional)
    }

    @Test func aPlainNameIsItsOwnShape() {
        #expect(TypeShape(parsing: "Database") == TypeShape(parsing: "(Database)"))
        #expect(TypeShape(parsing: "Database").names == ["Database"])
        #expect(TypeShape(parsing: "`Type`").namesOutsideExistentials == ["Type"])
        #expect(TypeShape(parsing: "Any") == TypeShape(parsing: "(Any)"))
        #expect(TypeShape(parsing: "Any").namesOutsideExistentials == ["Any"])
        #expect(TypeShape(parsing: "Self").names.isEmpty)
        #expect(TypeShape(parsing: "Self").existentials.isEmpty)
    }

    @Test func namesAndOpaqueTypesAreThoseTheTypeWrites() {
        #expect(TypeShape(parsing: "Result<T, Error>").names == ["Result", "T", "Error"])
        #expect(TypeShape(parsing: "`T`.Element").names == ["T", "Element"])
        #expect(TypeShape(parsing: "some Collection").isOpaque)
        #expect(!TypeShape(parsing: "any Collection").isOpaque)
    }

    /// A member's generic parameters come from its declaration's clause,
    /// whatever their constraints spell (`Dictionary<String, Int>` has a
    /// comma a text split would cut at).
    @Test func genericParameterNamesComeFromTheDeclaration() throws {
        let tree = try InlineTree([("Legacy.swift", """
            final class Legacy {
                func value<T: Decodable, U: Collection<Dictionary<String, Int>>>(id: Int64, as type: T.Type, in rows: U) -> T? { nil }
            }
            """)])
        let member = try #require(tree.generator.index.types["Legacy"]?.members.first)
        #expect(member.genericParameterNames == ["T", "U"])
        #expect(member.parameters.map(\.shape.names) == [["Int64"], ["T"], ["U"]])
        #expect(member.resultShape?.isOptional == true)
    }
}
#endif
