import ReverseGeocoding
import Testing

@Suite struct SphericalMeanTests {
    @Test func pointsEitherSideOfTheAntimeridianAverageOnIt() throws {
        let mean = try #require(SphericalMean.position(of: [(-16.8, 179.9), (-16.8, -179.9)]))
        #expect(abs(abs(mean.longitude) - 180) < 1e-9)
        #expect(abs(mean.latitude - -16.8) < 0.01)
    }

    @Test func nearbyPointsAverageAsOnAPlane() throws {
        let mean = try #require(SphericalMean.position(of: [(47.0, 8.0), (47.2, 8.4)]))
        #expect(abs(mean.latitude - 47.1) < 0.001)
        #expect(abs(mean.longitude - 8.2) < 0.001)
    }

    @Test func noPointsOrPointsThatCancelHaveNoMean() {
        #expect(SphericalMean.position(of: []) == nil)
        #expect(SphericalMean.position(of: [(0.0, 0.0), (0.0, 180.0)]) == nil)
        #expect(SphericalMean.position(of: [(.nan, 0.0)]) == nil)
    }
}
