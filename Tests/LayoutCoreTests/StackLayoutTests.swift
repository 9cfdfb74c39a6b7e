import Testing
import LayoutCore

/// StackLayout (seed 002): a 375×400 view, 150-point items at the centre (187.5, 200).
struct StackLayoutTests {
    let view = Size(width: 375, height: 400)

    @Test func seedPile() throws {
        let e = try StackLayout().layout(.uniform(count: 8), bounds: view).elements
        #expect(e.count == 8)
        #expect(e.allSatisfy { $0.frame == Rect(x: 112.5, y: 125, width: 150, height: 150) })
        #expect(e.map(\.zIndex) == [8, 7, 6, 5, 4, 0, 0, 0])
        #expect(e.map(\.isHidden) == [false, false, false, false, false, true, true, true])
        #expect(e[0].transform.components == [1, 0, 0, 1, 0, 0])
        // 15°: cos 0.965926, sin 0.258819; 30°: 0.866025, 0.5; 60°: 0.5, 0.866025.
        let t1 = e[1].transform, t2 = e[2].transform, t4 = e[4].transform
        #expect(close(t1.a, 0.965926) && close(t1.b, 0.258819) && close(t1.c, -0.258819) && close(t1.d, 0.965926))
        #expect(close(t2.a, 0.866025) && close(t2.b, 0.5) && close(t2.c, -0.5))
        #expect(close(t4.a, 0.5) && close(t4.b, 0.866025))
        #expect(e[5].transform == .identity && e[7].transform == .identity)
    }

    @Test func customAnglesAndPerItemSizes() throws {
        var layout = StackLayout()
        layout.angles = [-10, 90]
        let sizes = [Size(width: 100, height: 40), Size(width: 20, height: 20), Size(width: 0, height: 0)]
        let e = try layout.layout(.sizes(sizes), bounds: view).elements
        #expect(e[0].frame == Rect(x: 137.5, y: 180, width: 100, height: 40))
        #expect(close(e[0].transform.a, 0.984808) && close(e[0].transform.b, -0.173648))
        #expect(e[1].transform.components == [0, 1, -1, 0, 0, 0])  // exact at a quarter turn
        #expect(e.map(\.zIndex) == [3, 2, 0] && e[2].isHidden)
        #expect(e[2].frame == Rect(x: 187.5, y: 200, width: 0, height: 0))
    }

    @Test func noAnglesHidesEverything() throws {
        var layout = StackLayout()
        layout.angles = []
        let e = try layout.layout(.uniform(count: 3), bounds: view).elements
        #expect(e.allSatisfy { $0.isHidden && $0.zIndex == 0 })
    }

    @Test func contentIsTheBoundsAndEmptyIsFine() throws {
        let layout = try StackLayout().layout(.uniform(count: 0), bounds: .zero, contentOffset: Point(x: 5, y: 5))
        #expect(layout.elements.isEmpty && layout.contentSize == .zero && layout.contentOffset == Point(x: 5, y: 5))
        let one = try StackLayout().layout(.uniform(count: 1), bounds: .zero)
        #expect(one.elements[0].frame == Rect(x: -75, y: -75, width: 150, height: 150) && one.elements[0].zIndex == 1)
    }

    @Test func invalidAnglesThrow() {
        var layout = StackLayout()
        layout.angles = [0, .nan]
        #expect(throws: LayoutError.self) { try layout.layout(.uniform(count: 2), bounds: view) }
        layout = StackLayout()
        layout.itemSize = Size(width: .infinity, height: 1)
        #expect(throws: LayoutError.self) { try layout.layout(.uniform(count: 2), bounds: view) }
    }
}
