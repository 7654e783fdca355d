import Foundation
import Synchronization

/// How much of Apple's notification history the reconciler reads between two moves of its
/// checkpoint: a period sized so that it holds about ``targetPages`` pages, learnt from the
/// pages the last period held and kept from one pass to the next.
///
/// The reconciler reads its period window by window and moves the checkpoint after each
/// window read whole, so a page that fails for good loses one window's work, not the pass's.
/// A window of fixed length would not do: an hour of a large game's history is thousands of
/// pages (one failure throws them all away), and a week of a quiet one is a few. So each
/// window is as long as the last one would have had to be to hold ``targetPages`` pages
/// (at most twice its length, at least a second).
final class HistoryWindow: Sendable {
    /// The pages a window aims at by default: 1,000 notifications, a few seconds to a
    /// minute of work.
    static let defaultTargetPages = 50
    /// The shortest window: Apple's dates are in milliseconds, and a second of history
    /// larger than ``targetPages`` pages is read whole.
    static let shortest: TimeInterval = 1
    /// The longest window: all the history Apple serves.
    static let longest: TimeInterval = Reconciler.maximumLookback
    /// The first window of a server that has read none yet.
    static let initial: TimeInterval = 3_600

    /// The pages a window aims at.
    let targetPages: Int
    private let next: Mutex<TimeInterval>

    /// A window of `length` seconds (clamped to ``shortest``...``longest``) that learns
    /// from there to hold about `targetPages` pages.
    init(length: TimeInterval = HistoryWindow.initial, targetPages: Int = HistoryWindow.defaultTargetPages) {
        self.targetPages = max(targetPages, 1)
        self.next = Mutex(Self.clamped(length))
    }

    /// The length of the next window, in seconds.
    var length: TimeInterval { next.withLock { $0 } }

    /// Learns from a window of `length` seconds that was read in `pages` pages: the next
    /// one is as long as would have held ``targetPages`` pages at that density, at most
    /// twice `length`.
    func record(length: TimeInterval, pages: Int) {
        let scale = min(Double(targetPages) / Double(max(pages, 1)), 2)
        let learnt = Self.clamped(length * scale)
        next.withLock { $0 = learnt }
    }

    private static func clamped(_ length: TimeInterval) -> TimeInterval {
        length.isFinite ? min(max(length, shortest), longest) : longest
    }
}
