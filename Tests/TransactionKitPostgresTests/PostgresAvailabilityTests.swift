import Testing
import Foundation

#if Postgres
/// Whether the PostgreSQL tests have a server: `TXKIT_POSTGRES_URL`, set by
/// Scripts/with-postgres.sh.
let postgresServerURL: String? = {
    let url = ProcessInfo.processInfo.environment["TXKIT_POSTGRES_URL"]
    return url?.isEmpty == false ? url : nil
}()

/// The one line a run without a server prints.
let postgresSkipReason: Comment =
    "no PostgreSQL server (TXKIT_POSTGRES_URL is not set): run Scripts/with-postgres.sh swift test --traits Postgres --filter 'Postgres|AsyncDB'"

@Test(.enabled(if: postgresServerURL != nil, postgresSkipReason))
func postgresServerIsAvailable() {}
#else
@Test(.disabled("PostgresDB is built only with the Postgres trait: run Scripts/with-postgres.sh swift test --traits Postgres --filter 'Postgres|AsyncDB'"))
func postgresTestsNeedTheTraitAndAServer() {}
#endif
