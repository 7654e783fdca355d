import Testing

@Suite struct DemoCommandTests {
    @Test func theDemoDeliversExactlyOnce() async throws {
        let output = try await CommandLineRunner.run(["demo", "--outage", "1"])
        #expect(output.status == 0, "\(output.stdout)\n\(output.stderr)")
        #expect(output.stdout.contains("the app is killed"))
        #expect(output.stdout.contains("delivered exactly once"))
        #expect(output.stdout.contains("coins=100"))
    }

    @Test(arguments: ["storekit2", "storekit1"])
    func theDemoDeliversExactlyOnceThroughTheStoreKitAdapters(store: String) async throws {
        let output = try await CommandLineRunner.run(["demo", "--outage", "1", "--store", store])
        #expect(output.status == 0, "\(output.stdout)\n\(output.stderr)")
        #expect(output.stdout.contains("delivered exactly once"))
        #expect(output.stdout.contains("coins=100"))
    }
}
