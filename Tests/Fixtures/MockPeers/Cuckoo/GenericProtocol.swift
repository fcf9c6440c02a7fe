// Verbatim from Cuckoo (https://github.com/Brightify/Cuckoo, commit 7cef6391ef36c684759f38a91968bbf97e12e02b), Tests/Swift/Source/GenericProtocol.swift,
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

import Foundation

protocol GenericProtocol<C> {
    associatedtype C: AnyObject
    associatedtype V

    var readOnlyPropertyC: C { get }
    var readWritePropertyV: V { get set }

    var constant: Int { get }
    var optionalProperty: V? { get set }

    init(theC: C, theV: V)

    func callSomeC(theC: C) -> Int
    func callSomeV(theV: V) -> Int
    func compute(classy: C, value: V) -> C
    func noReturn()

    /**
     Multiline documentation string test.
     It can of course have multiple lines
    */
    func computeAsync(classy: C, value: V) async -> (C, V)
    func noReturnAsync() async

    /// Test for a bug that produces uncompilable code when associated types are used along with closures.
    /// Requires change from WrappableType to ComplexType.
    func closureParameter(closure: @escaping () -> Void)
    
    /// Test for a bug that produces uncompilable code when generic functions are used in protocols with associated types.
    func genericParameter<T>(value: T)
    
    /// Test for a bug that produces uncompilable code when generic functions are used in protocols with associated types and function has associated type parameters.
    func genericAndAassociatedTypeParameters<T>(value: T, theC: C, theV: V) -> (C?) -> V
}

protocol PrimaryAssociatedTypeProtocol<Output> {
    associatedtype Output: Equatable
    
    func connect() -> Output
}

protocol MixedPrimaryAssociatedTypeProtocol<Input> {
    associatedtype Input: Equatable
    associatedtype Output: Equatable
    
    var defaultOutput: Output { get }
    
    func convertToOutput<T>(
        value: sending T,
        input: sending Input,
        convert: @escaping @MainActor @Sendable (T, Input) async throws -> Output?
    ) async rethrows -> Output
}
