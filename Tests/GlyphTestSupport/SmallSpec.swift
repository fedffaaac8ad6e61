/// The small checkbox spec the snapshot and fingerprint tests share: 8 variants (2 Dynamic Type
/// sizes × 2 states × 2 scales), a grey ring, a red fill and a white tick.
public enum SmallSpec {
    public static let json = """
    {
      "name": "t",
      "control": "checkbox",
      "sizes": { "md": { "size": 20, "cornerRadius": 4, "borderWidth": 1.5, "markSize": 12, "markWeight": 2 } },
      "states": ["unchecked", "checked"],
      "scales": [1, 2],
      "dynamicTypeSizes": ["large", "accessibility5"],
      "themes": { "default": { "surface": "#FFFFFF", "border": "#767676", "fill": "#E00800", "mark": "#FFFFFF" } }
    }
    """
}
