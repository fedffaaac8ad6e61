# Writes primer-<mode>.tokens.json from ../terrazzo-mode-type-color.tokens.json (primer.resolver.json is written by hand).
# Run from Tests/Fixtures/tokens: python3 resolver/make.py
import json

src = json.load(open('terrazzo-mode-type-color.tokens.json'))
for mode in ['light', 'dark', 'light-high-contrast', 'dark-high-contrast']:
    out = {"color": {"blue": {"$type": "color"}}}
    for k, v in src['color']['blue'].items():
        if not k.startswith('$'):
            out['color']['blue'][k] = {"$value": v['$extensions']['mode'][mode]}
    luminosity = mode.split('-')[0]
    for path in [('control', 'border-focus'), ('text-action',)]:
        node = src['color']
        for p in path:
            node = node[p]
        target = out['color']
        for p in path[:-1]:
            target = target.setdefault(p, {})
        target[path[-1]] = {"$value": node['$extensions']['mode'][luminosity]}
    open(f'resolver/primer-{mode}.tokens.json', 'w').write(json.dumps(out, indent=2) + "\n")
