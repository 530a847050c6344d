"""The contract's rule for snapshot versions chosen by the clock (docs/contract.md, "Choosing versions")."""
import unittest

from frontier_client.client import VERSION_UPDATE_BITS, snapshot_version

T = 1_795_000_000_000  # a clock reading in 2026, ms


class SnapshotVersionTest(unittest.TestCase):
    def test_a_later_snapshot_is_newer_than_a_hundred_thousand_updates(self):
        loaded = snapshot_version(T)
        self.assertEqual(T << 20, loaded)
        self.assertGreater(snapshot_version(T + 1), loaded + 100_000)
        self.assertEqual(T, (loaded + 100_000) >> VERSION_UPDATE_BITS, "the version tells when its snapshot was published")

    def test_the_same_numbers_as_the_java_client(self):
        # SnapshotVersions.ofTime(1_795_000_000_000L) in clients/java
        self.assertEqual(1_882_193_920_000_000_000, snapshot_version(T))

    def test_a_known_current_version_ahead_of_the_clock_is_passed(self):
        self.assertEqual(T << 20, snapshot_version(T, current=5))
        ahead = ((T + 60_000) << 20) + 7
        self.assertEqual(ahead + 1, snapshot_version(T, current=ahead))

    def test_the_default_clock_is_now(self):
        self.assertGreater(snapshot_version(), T << 20)

    def test_out_of_range_clock_readings_are_refused(self):
        with self.assertRaises(ValueError):
            snapshot_version(-1)
        with self.assertRaises(ValueError):
            snapshot_version(1 << 44)


if __name__ == "__main__":
    unittest.main()
