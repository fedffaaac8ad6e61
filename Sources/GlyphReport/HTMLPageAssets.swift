/// The report page's own style sheet and script (no outside fonts or scripts: the page works from
/// file:// with no network).
extension HTMLBuilder {
    /// Narrow windows (390 px) to wide ones (2560 px) without the page scrolling sideways: what can be
    /// wider than the window (contact sheets, the counts table, a snapshot at its size, the viewer's
    /// zoomed picture) scrolls in its own box. Every control is at least 24 × 24 CSS px.
    static let css = """
    :root{--ink:#1c1c1e;--muted:#545458;--line:#c7c7cc;--bg:#ffffff;--panel:#f2f2f7;--bad:#b3261e;--warn:#8a5300;--good:#1b6e2d;--focus:#0040dd}
    *{box-sizing:border-box}body{margin:0;font:15px/1.5 -apple-system,"Inter","Segoe UI","DejaVu Sans",sans-serif;color:var(--ink);background:var(--bg)}
    .wrap{max-width:1400px;margin:0 auto;padding:0 20px}@media (max-width:600px){.wrap{padding:0 12px}}
    .vh{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap}
    a{color:#0040dd}a:focus,button:focus,select:focus,input:focus,summary:focus,[tabindex]:focus{outline:3px solid var(--focus);outline-offset:2px}
    code{overflow-wrap:anywhere}.prose{max-width:110ch}[id]{scroll-margin-top:8px}
    .top{background:var(--panel);border-bottom:1px solid var(--line);padding:12px 0}.top h1{margin:0;font-size:22px}
    .status{margin:4px 0 0;font-weight:600;font-size:18px}.status.pass{color:var(--good)}.status.fail{color:var(--bad)}
    .toc ul{list-style:none;margin:10px 0 0;padding:0;display:flex;flex-wrap:wrap;gap:6px}
    .toc a{display:inline-flex;align-items:center;gap:6px;min-height:32px;padding:2px 12px;border:1px solid var(--line);border-radius:16px;background:#fff;text-decoration:none;font-weight:600}
    .toc a:hover{border-color:var(--focus);text-decoration:underline}
    .count{display:inline-block;min-width:1.7em;padding:0 6px;border-radius:10px;background:var(--panel);color:var(--ink);font-size:13px;font-weight:600;text-align:center}
    .muted{color:var(--muted);font-weight:400}h2{margin-top:32px;border-bottom:1px solid var(--line);padding-bottom:4px}
    .cards{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:12px}.card{background:var(--panel);border-radius:10px;padding:12px 16px;min-width:150px;flex:0 1 auto;border-left:6px solid var(--line)}
    .card.bad{border-left-color:var(--bad)}.card.warn{border-left-color:var(--warn)}.card.good{border-left-color:var(--good)}
    .card .value{font-size:28px;font-weight:700;display:block}.card .title{font-weight:600}.card .note{display:block;color:var(--muted);font-size:13px}
    table{border-collapse:collapse}caption{text-align:left;font-weight:600;padding:6px 0}th,td{border:1px solid var(--line);padding:4px 8px;vertical-align:middle}
    .counts td.bad,.counts td.bad a{color:var(--bad);font-weight:600}.counts td.warn,.counts td.warn a{color:var(--warn);font-weight:600}
    .counts th,.counts td{white-space:nowrap}.counts th[scope=row]{position:sticky;left:0;background:var(--bg)}
    .scroll-box{position:relative;overflow:auto;max-width:100%}
    .scroll-box::-webkit-scrollbar{width:12px;height:12px}.scroll-box::-webkit-scrollbar-track{background:var(--panel)}
    .scroll-box::-webkit-scrollbar-thumb{background:#7c7c80;border-radius:6px;border:2px solid var(--panel)}
    @supports not selector(::-webkit-scrollbar){.scroll-box{scrollbar-color:#7c7c80 var(--panel)}}
    .filters form{display:flex;flex-wrap:wrap;gap:12px 16px;align-items:center}
    select{font:inherit;min-height:32px;padding:4px;border:1px solid var(--muted);border-radius:6px;background:#fff;color:var(--ink);max-width:100%}
    .filter-note{margin:0}
    .sheet-scroll{margin:0 0 24px;border:1px solid var(--line);border-radius:6px;background:var(--bg)}
    .table-title{font-weight:600;margin:16px 0 6px}.sheet-head{display:flex;flex-wrap:wrap;align-items:baseline;gap:4px 12px;margin:16px 0 6px}
    .sheet-head h4{margin:0;font-size:15px}.scroll-hint{font-size:13px}
    .sheet th{background:var(--panel);font-size:13px;white-space:nowrap}
    .sheet th[scope=row]{position:sticky;left:0;z-index:1}.sheet td{padding:4px;background:var(--panel);vertical-align:top}
    .sheet img{display:block;max-width:none}.sheet td.flag-error{outline:3px solid var(--bad);outline-offset:-3px}.sheet td.flag-warning{outline:3px dashed var(--warn);outline-offset:-3px}
    .sheet td.flag-info{outline:2px dotted var(--muted);outline-offset:-2px}.sheet td.dim img{opacity:.3}
    .cell-open{position:relative;display:block;margin:0;padding:0;border:0;border-radius:2px;background:none;min-width:24px;min-height:24px;cursor:zoom-in;font:inherit;color:inherit}
    .cell-open:hover img{box-shadow:0 0 0 2px var(--focus)}
    .cell-meta{margin:3px 0 0;font-size:12px;line-height:1.4;display:flex;flex-wrap:wrap;gap:4px;align-items:center}.cell-count{color:var(--muted)}
    .snap-badge{display:inline-flex;align-items:center;min-height:24px;background:var(--focus);color:#fff;border-radius:4px;padding:0 6px;font-size:12px;font-weight:700;text-decoration:none}
    .finding{border:1px solid var(--line);border-left:6px solid var(--line);border-radius:8px;padding:8px 12px;margin:8px 0}
    .finding.sev-error{border-left-color:var(--bad)}.finding.sev-warning{border-left-color:var(--warn)}.finding .head{margin:0}.finding .message{margin:4px 0;font-weight:600}
    .swatches{display:flex;flex-wrap:wrap;align-items:center;gap:8px;margin:4px 0}.swatches>span:not(.swatch){margin-right:8px}
    .swatch{display:inline-flex;align-items:center;justify-content:center;width:40px;height:28px;border:1px solid var(--line);border-radius:4px}
    .swatch span{display:block;width:24px;height:14px;border-radius:3px}
    .numbers{font-size:13px;color:var(--muted);overflow-wrap:anywhere}.badge{display:inline-block;border-radius:4px;padding:0 6px;font-size:13px;font-weight:700;border:1px solid currentColor}
    .badge.error{color:var(--bad)}.badge.warning{color:var(--warn)}.badge.info{color:var(--muted)}.badge.accepted{color:var(--good)}
    figure{margin:8px 0;max-width:100%}figure img{max-width:100%;height:auto;border:1px solid var(--line)}figcaption{font-size:13px;color:var(--muted)}
    summary{cursor:pointer;color:#0040dd;padding:2px 0}.triple{display:flex;flex-wrap:wrap;gap:12px}
    .snap-filter{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;margin:8px 0}
    .snap-group h3{font-size:18px;margin:24px 0 8px}.snap-group h3 .count{font-size:14px}
    .snapshot{border:1px solid var(--line);border-radius:8px;padding:8px 12px;margin:8px 0}.snapshot h4{margin:0 0 4px}.snapshot p{margin:4px 0}
    .compare .scroll-box{display:inline-block;vertical-align:top;border:1px solid var(--line)}.compare .stack{position:relative;display:block;width:max-content}.compare .stack img{display:block;max-width:none}
    .compare .over{position:absolute;left:0;top:0;clip-path:inset(0 50% 0 0)}.compare label{display:inline-flex;flex-wrap:wrap;gap:8px;align-items:center;margin:8px 8px 0 0}
    input[type=range]{min-height:24px;min-width:120px}
    button{font:inherit;min-height:32px;padding:4px 12px;border:1px solid var(--muted);border-radius:6px;background:#fff;color:var(--ink);cursor:pointer}
    button[aria-pressed=true]{background:var(--ink);border-color:var(--ink);color:#fff}button:disabled{color:var(--muted);border-color:var(--line);cursor:default}
    #viewer{width:min(1200px,calc(100vw - 16px));max-width:none;max-height:calc(100vh - 16px);padding:0;border:1px solid var(--line);border-radius:12px;color:var(--ink);background:var(--bg)}
    #viewer::backdrop{background:rgba(0,0,0,.55)}.viewer-body{padding:16px}
    .viewer-head{display:flex;justify-content:space-between;align-items:flex-start;gap:12px}.viewer-head h2{margin:0;border:0;padding:0;font-size:17px;overflow-wrap:anywhere}
    .viewer-meta{margin:4px 0 0}.viewer-tools{display:flex;flex-wrap:wrap;gap:8px 16px;justify-content:space-between;margin:10px 0}
    .viewer-tools .zoom,.viewer-tools .step{display:flex;flex-wrap:wrap;gap:6px}
    .viewer-pic{max-height:60vh;padding:8px;border:1px solid var(--line);background:var(--panel)}
    .viewer-pic img{display:block;max-width:none;image-rendering:pixelated}
    #viewer h3{font-size:15px;margin:14px 0 4px}#viewer ul{list-style:none;margin:0;padding:0}#viewer li{margin:4px 0}
    #viewer li a{display:inline-block;min-height:24px;font-weight:600}.viewer-none{margin:0}
    [hidden]{display:none!important}footer{margin:40px auto;font-size:13px}
    """

    /// Style for a run with display settings or focus (other pages are as they were).
    static let axesCSS = """
    .setting-group>h4{font-size:16px;margin:24px 0 4px;padding-top:8px;border-top:1px solid var(--line)}
    .sheet-head h5{margin:0;font-size:15px}.badge.axes{background:var(--panel);color:var(--ink);border:1px solid var(--muted)}

    """

    /// The page's script; with `axes` (a run with display settings or focus) the Display setting and
    /// Focus filters also apply to findings, sheets (a setting's group, a focus column) and snapshots.
    static func script(axes: Bool) -> String {
        guard axes else { return script }
        var s = script
        func swap(_ old: String, _ new: String) {
            precondition(s.contains(old), "the page script changed: \(old)")
            s = s.replacingOccurrences(of: old, with: new)
        }
        swap("dt:val('dt')};", "dt:val('dt'),setting:val('setting'),focus:val('focus')};")
        swap("&&ok(el,'dt',f.dt)", "&&ok(el,'dt',f.dt)&&ok(el,'setting',f.setting)&&ok(el,'focus',f.focus)")
        swap("c.hidden=!ok(c,'theme',f.theme);});",
             "c.hidden=!ok(c,'theme',f.theme)||!ok(c,'focus',f.focus);});\n"
             + "    document.querySelectorAll('.setting-group').forEach(function(g){g.hidden=!ok(g,'setting',f.setting);});")
        return s
    }

    static let script = """
    (function(){
      var form=document.getElementById('filter-form');var note=document.getElementById('filter-count');
      var snapSelect=document.querySelector('[data-snapshot-filter]');var snapNote=document.getElementById('snapshot-count');
      function val(k){var s=form.querySelector('[data-filter="'+k+'"]');return s?s.value:'';}
      function ok(el,k,v,attr){if(!v)return true;var a=el.getAttribute(attr||('data-'+k));if(a===null)return true;if(a==='*')return true;return (' '+a+' ').indexOf(' '+v+' ')>=0;}
      var total=0;document.querySelectorAll('article.finding').forEach(function(el){total+=+(el.getAttribute('data-count')||1);});
      function apply(){
        var f={preset:val('preset'),rule:val('rule'),severity:val('severity'),theme:val('theme'),dt:val('dt')};
        var shown=0;
        document.querySelectorAll('article.finding').forEach(function(el){
          var vis=ok(el,'preset',f.preset)&&ok(el,'rule',f.rule)&&ok(el,'severity',f.severity)&&ok(el,'theme',f.theme)&&ok(el,'dt',f.dt);
          el.hidden=!vis;if(vis)shown+=+(el.getAttribute('data-count')||1);});
        document.querySelectorAll('section.rule-group,section.finding-group').forEach(function(s){
          s.hidden=!s.querySelector('article.finding:not([hidden])');});
        document.querySelectorAll('section.preset').forEach(function(s){s.hidden=!ok(s,'preset',f.preset);});
        document.querySelectorAll('table.sheet tr[data-dt]').forEach(function(r){r.hidden=!ok(r,'dt',f.dt);});
        document.querySelectorAll('table.sheet [data-theme]').forEach(function(c){c.hidden=!ok(c,'theme',f.theme);});
        document.querySelectorAll('table.sheet td[data-hits]').forEach(function(c){
          var m=c.getAttribute('data-hits').split(' ').filter(function(h){if(!h)return false;var p=h.split(':');
            return (!f.rule||p[0]===f.rule)&&(!f.severity||p[1]===f.severity);});
          function has(s){return m.some(function(h){return h.split(':')[1]===s;});}
          var w=has('error')?'error':has('warning')?'warning':m.length?'info':'';
          ['error','warning','info'].forEach(function(s){c.classList.toggle('flag-'+s,s===w);});
          c.classList.toggle('dim',!!(f.rule||f.severity)&&!m.length);});
        // Snapshots: the preset, theme and size filters, and the section's own status filter.
        var st=snapSelect?snapSelect.value:'';var snapShown=0,snapTotal=0;
        document.querySelectorAll('article.snapshot').forEach(function(el){snapTotal++;
          var vis=ok(el,'preset',f.preset)&&ok(el,'theme',f.theme)&&ok(el,'dt',f.dt)&&(!st||el.getAttribute('data-status')===st);
          el.hidden=!vis;if(vis)snapShown++;});
        document.querySelectorAll('section.snap-group').forEach(function(s){
          s.hidden=s.getAttribute('data-status')==='unchanged'?!!st:!s.querySelector('article.snapshot:not([hidden])');});
        if(snapNote)snapNote.textContent=snapShown+' of '+snapTotal+' change'+(snapTotal===1?'':'s')+' shown';
        note.textContent=shown+' of '+total+' finding'+(total===1?'':'s')+' shown';
        scrolls();
      }
      // A sheet wider than its box says so above it (it scrolls sideways).
      function scrolls(){document.querySelectorAll('.sheet-scroll').forEach(function(d){var wide=d.scrollWidth>d.clientWidth+1;
        d.toggleAttribute('data-scrolls',wide);var hint=d.previousElementSibling&&d.previousElementSibling.querySelector('.scroll-hint');if(hint)hint.hidden=!wide;});}
      // Filters can be preset in the link: index.html?severity=warning&dt=AX5&snapshot=changed
      var q=new URLSearchParams(location.search);
      function preset(s,v){if(v!==null&&Array.prototype.some.call(s.options,function(o){return o.value===v;}))s.value=v;}
      form.querySelectorAll('select[data-filter]').forEach(function(s){preset(s,q.get(s.getAttribute('data-filter')));});
      if(snapSelect){preset(snapSelect,q.get('snapshot'));snapSelect.addEventListener('change',apply);}
      form.addEventListener('change',apply);apply();addEventListener('resize',scrolls);
      document.querySelectorAll('[data-compare]').forEach(function(box){
        var over=box.querySelector('.over');var slider=box.querySelector('[data-slider]');var flip=box.querySelector('[data-flip]');
        function set(p){over.style.clipPath='inset(0 '+(100-p)+'% 0 0)';}
        slider.addEventListener('input',function(){set(+slider.value);});
        flip.addEventListener('click',function(){slider.value=(+slider.value>50)?0:100;set(+slider.value);});
        set(+slider.value);});
      // The picture viewer: a cell opens its render at full size (1×: one pixel per CSS px; 2×, 4×
      // pixel for pixel) with its findings and snapshots. Escape closes it; the focus goes back to the cell.
      var dlg=document.getElementById('viewer');
      if(!dlg||!dlg.showModal)return;
      var title=document.getElementById('viewer-title'),meta=document.getElementById('viewer-meta');
      var pic=document.createElement('img'),list=dlg.querySelector('.viewer-findings'),none=dlg.querySelector('.viewer-none');
      var snapBox=dlg.querySelector('.viewer-snapshots'),snapList=snapBox.querySelector('ul');
      var prev=dlg.querySelector('[data-step="-1"]'),next=dlg.querySelector('[data-step="1"]');
      var current=null,zoom=1,away=false;dlg.querySelector('.viewer-pic').append(pic);
      function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!=null)e.textContent=text;return e;}
      function li(parts){var l=el('li');parts.forEach(function(p){l.append(p);});return l;}
      function size(){if(!pic.naturalWidth)return;pic.style.width=pic.naturalWidth*zoom+'px';pic.style.height=pic.naturalHeight*zoom+'px';
        meta.textContent='@2x render, '+pic.naturalWidth+' × '+pic.naturalHeight+' px ('+(pic.naturalWidth/2)+' × '+(pic.naturalHeight/2)+' pt); '
          +(zoom===1?'one pixel per CSS px':'each pixel drawn '+zoom+' × '+zoom+' CSS px')+'.';}
      function setZoom(z){zoom=z;dlg.querySelectorAll('[data-zoom]').forEach(function(b){b.setAttribute('aria-pressed',String(+b.getAttribute('data-zoom')===z));});size();}
      function cells(){var t=current&&current.closest('table');
        return t?Array.prototype.filter.call(t.querySelectorAll('button.cell-open'),function(b){return b.offsetParent!==null;}):[];}
      function show(btn){
        current=btn;var name=btn.getAttribute('data-variant');
        title.textContent=name;meta.textContent='';pic.style.width='';pic.style.height='';
        pic.alt='The render of '+name+' at full size';pic.src=btn.querySelector('img').getAttribute('src');if(pic.complete)size();
        list.textContent='';
        (btn.getAttribute('data-f')||'').split(' ').filter(Boolean).forEach(function(j){
          var t=document.getElementById('f-'+j);var card=t&&t.closest('article.finding');if(!card)return;
          var sev=card.getAttribute('data-severity');var m=t.tagName==='LI'?t.querySelector('.msg'):card.querySelector('.message');
          var sub=card.querySelector('.subject');var a=el('a',null,card.getAttribute('data-rule'));a.href='#f-'+j;
          list.append(li([el('span','badge '+sev,sev),' ',a,' ',el('span','muted',sub?sub.textContent:''),' — '+(m?m.textContent:'')]));});
        none.hidden=list.children.length>0;list.hidden=!none.hidden;
        snapList.textContent='';
        (btn.getAttribute('data-s')||'').split(' ').filter(Boolean).forEach(function(n){
          var s=document.getElementById('s-'+n);if(!s)return;var code=s.querySelector('h4 code');
          var a=el('a',null,code?code.textContent:'s-'+n);a.href='#s-'+n;
          snapList.append(li([el('span','badge info',s.getAttribute('data-status')),' ',a]));});
        snapBox.hidden=!snapList.children.length;
        var all=cells(),i=all.indexOf(btn);prev.disabled=i<=0;next.disabled=i<0||i>=all.length-1;
        if(document.activeElement&&document.activeElement.disabled)dlg.querySelector('[data-close]').focus();
      }
      pic.addEventListener('load',size);
      document.addEventListener('click',function(e){var b=e.target.closest&&e.target.closest('button.cell-open');
        if(!b||dlg.contains(b))return;show(b);setZoom(zoom);if(!dlg.open)dlg.showModal();});
      dlg.addEventListener('click',function(e){
        if(e.target===dlg){dlg.close();return;}
        var z=e.target.closest('[data-zoom]');if(z){setZoom(+z.getAttribute('data-zoom'));return;}
        var s=e.target.closest('[data-step]');if(s){var all=cells(),n=all[all.indexOf(current)+(+s.getAttribute('data-step'))];if(n)show(n);return;}
        if(e.target.closest('[data-close]')){dlg.close();return;}
        var a=e.target.closest('a[href^="#"]');
        if(a){away=true;var t=document.getElementById(a.getAttribute('href').slice(1));
          for(var d=t&&t.closest('details');d;d=d.parentElement&&d.parentElement.closest('details'))d.open=true;dlg.close();}});
      dlg.addEventListener('close',function(){if(!away&&current)current.focus();away=false;});
    })();
    """
}
