#if Postgres
import Testing
import TransactionKit
import TransactionKitPostgres

/// Connection URLs, without a server.
@Suite("PostgresDB configuration")
struct PostgresConfigurationTests {
    @Test func aURLGivesTheEndpointCredentialsAndDatabase() throws {
        let configuration = try PostgresDB.Configuration(url: "postgresql://app:s3cret@db.internal:6543/inbox")
        #expect(configuration.endpoint == .tcp(host: "db.internal", port: 6543))
        #expect(configuration.username == "app")
        #expect(configuration.password == "s3cret")
        #expect(configuration.database == "inbox")
        #expect(configuration.isolation == .serializable)
        let db = PostgresDB(configuration: configuration)
        #expect(db.path == "postgresql://app@db.internal:6543/inbox", "no password")
    }

    @Test func aSocketDirectoryQueryItemConnectsThroughTheUnixSocket() throws {
        let configuration = try PostgresDB.Configuration(url: "postgres://app@localhost:5433/inbox?host=/run/postgresql")
        #expect(configuration.endpoint == .unixSocket(path: "/run/postgresql/.s.PGSQL.5433"))
        #expect(configuration.password == nil)
    }

    @Test(arguments: [
        "mysql://app:s3cret@host/db",
        "postgresql://app:s3cret@host/",
        "postgresql://:s3cret@host/db",
        "postgresql://app:s3cret@host/db?sslmode=verify-full",
    ])
    func aURLThatIsNotUsableIsRefusedWithoutItsPassword(url: String) throws {
        let error = #expect(throws: DBError.self) { try PostgresDB.Configuration(url: url) }
        #expect(error?.kind == .cannotOpen)
        #expect(error.map { !String(describing: $0).contains("s3cret") } == true, "\(String(describing: error))")
    }
}
#endif
