import Testing
import Foundation
import TransactionKitTestSupport

#if Postgres
@Test(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
func postgresServerIsAvailable() {}
#else
@Test(.disabled("PostgresDB is built only with the Postgres trait: run Scripts/with-postgres.sh swift test --traits Postgres --filter 'Postgres|AsyncDB'"))
func postgresTestsNeedTheTraitAndAServer() {}
#endif
