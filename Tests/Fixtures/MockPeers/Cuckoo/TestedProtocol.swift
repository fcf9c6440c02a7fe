// Verbatim from Cuckoo (https://github.com/Brightify/Cuckoo, commit 7cef6391ef36c684759f38a91968bbf97e12e02b), Tests/Swift/Source/TestedProtocol.swift,
// under its MIT licence, reproduced here:
//
// The MIT License (MIT)
//
// Copyright (c) 2016 Brightify.org
//
// Permission is hereby granted, free of charge, to any person obtaining a copy
// of this software and associated documentation files (the "Software"), to deal
// in the Software without restriction, including without limitation the rights
// to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
// copies of the Software, and to permit persons to whom the Software is
// furnished to do so, subject to the following conditions:
//
// The above copyright notice and this permission notice shall be included in all
// copies or substantial portions of the Software.
//
// THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
// IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
// FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
// AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
// LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
// OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
// SOFTWARE.
// ---- end of licence; the file follows unchanged ----

struct LongType<T, U, V, X> {}

protocol TestedProtocol {

    var readOnlyProperty: String { get }

    var readWriteProperty: Int { get set }

    var optionalProperty: Int? { get set }

    var closureProperty: ((String) -> Int) -> () { get set }

    var closureWithArgumentNameProperty: (_ i: (_ j: String) -> Int) -> () { get set }

    var closureWithArgumentNameMultilineProperty: (
        _ i   : (
            _ j
            : Int
        ) -> String
    ) -> () { get set }

    var closureWithComplexArgumentNameProperty: (_ i_iI0: (_ j_jJ0: String) -> Int) -> () { get set }

    var closureWithComplexArgumentNameMultilineProperty: (
        _ i_iI0   : (
            _ j_jJ0
            : Int
        ) -> String
    ) -> () { get set }

    var throwsProperty: Int { get throws }

    @available(macOS 10.15, iOS 13.0, watchOS 6.0, tvOS 13.0, *)
    var asyncProperty: Int { get async }

    @available(macOS 10.15, iOS 13.0, watchOS 6.0, tvOS 13.0, *)
    var asyncThrowsProperty: Int { get async throws }

    func noReturn()

    func count(characters: String) -> Int

    func withThrows() throws -> Int

    func withNoReturnThrows() throws

    func withClosure(_ closure: (String) -> Int) -> Int

    func withAutoClosure(action closure: @autoclosure () -> Int) -> Int

    func withClosureAndParam(_ a: String, closure:(String) -> Int) -> Int

    func withEscape(_ a: String, action closure: @escaping (String) -> Void)

    func withOptionalClosure(_ a: String, closure: ((String) -> Void)?)

    func withOptionalClosureAndReturn(_ a: String, closure: ((String) -> Void)?) -> Int

    func withLabelAndUnderscore(labelA a: String, _ b: String)

    /// In this example `for` and `in` are not actually used in a way that conflicts with reserved keywords because
    /// conforming types will typically use `for` and `in` as an argument label for parameter with a different name,
    /// thus avoiding the usage of a reserved keyword in the body of the function.
    ///
    /// The problem was with the generated mock code, which was in turn using these in the body without escaping them,
    /// causing the generated mock code to fail to compile.
    func withReservedKeywords(for: String, in: String) -> String

    func withNamedTuple(tuple: (a: String, b: String)) -> Int

    func withImplicitlyUnwrappedOptional(i: Int!) -> String

    init()

    init(labelA a: String, _ b: String)

    func protocolMethod() -> String

    func methodWithParameter(_ param: String) -> String

    // Don't fix the whitespace in the return type.
    // It makes sure that inconsistent whitespace doesn't generate duplicate mock methods.
    func genericReturn() -> Dictionary<Int,Void>

    // Don't fix method line breaks.
    // This method is for testing multiline arguments.
    func multilineMethod(
        completion: @escaping (
            _ bar: Int,
            _ baz: Int,
            _ qux: Int
        ) -> Void
    )

    // Don't fix method line breaks.
    // This method is for testing generic multiline arguments.
    func genericMultilineMethod<
        T,
        U,
        V
    >(
        completion: @escaping (
            _ bar: V,
            _ baz: U,
            _ qux: T
        ) -> Void
    )

    func frobnicate() -> LongType<
      Int,
      String,
      Bool,
      Void
    >

    @available(iOS 13.0, *)
    @available(tvOS 13.0, *)
    @available(macOS 10.15, *)
    func asyncMethod() async

    func compositionalParameters(param1: any Numeric, param2: OnlyLabelProtocol & Codable)
}

extension TestedProtocol {

    func protocolMethod() -> String {
        return "a"
    }

}

protocol EmptyLabelProtocol {
    associatedtype T

    func empty(_: String)

    func empty(_: String) -> Int

    func empty(_: T) -> T
}

protocol OnlyLabelProtocol {
    func empty(_: String)

    func some(some: Int)

    func double(here there: Bool)
}

class OnlyLabelClass: OnlyLabelProtocol {
    func empty(_ mine: String) {
    }

    func some(some none: Int) {
    }

    func double(here notInHere: Bool) {
    }
}

public protocol PublicoProtocolo {
    associatedtype InternaloTypo

    var stringoStar: String { get set }

    init(hola: String)

    func internalMethod()
}

protocol SimpleProtocol {
    var constant: Int { get }
}

protocol SendableProtocol: Sendable {}

class SimpleClass: SimpleProtocol {
    let constant = 0
}

class SimpleSubclass: SimpleClass {}
