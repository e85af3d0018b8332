//! Parsing of operations, regions and blocks, and the [`CustomParser`] API
//! that ops with custom syntax use.

use super::attrs::DEFERRED_LOC_DIALECT;
use super::lexer::{Token, TokenKind as T};
use super::scope::{Definition, ForwardRef, IsolatedScope, SourcePosLite};
use super::{Memo, OwnedOp, ParseError, ParseResult, Parser};
use crate::attrs::AttrData;
use crate::body::OperationState;
use crate::entity::NONE;
use crate::registry::{OpDef, Traits};
use crate::{Attribute, BlockId, Body, Context, Ident, Location, OpId, RegionId, Type, Value};
use lf_diag::{Diagnostic, SourcePos};

/// A result name being bound: `%name` or `%name:count`.
struct ResultName<'a> {
    name: &'a str,
    count: u32,
    tok: Token,
}

/// An operand reference before its type is known: `%name` or `%name#3`.
#[derive(Clone, Copy, Debug)]
pub struct UnresolvedOperand<'a> {
    /// The name without `%`.
    pub name: &'a str,
    /// The result number (`#N`), 0 if absent.
    pub number: u32,
    /// The token of the reference (for diagnostics).
    pub(crate) tok: Token,
}

/// What the generic or custom parser collects for an op before creating it.
pub(crate) struct PendingOp {
    pub(crate) state: OperationState,
    pub(crate) attrs: Vec<(Ident, Attribute)>,
    /// Properties set one by one by custom parsers.
    pub(crate) props: crate::DictEntries,
    pub(crate) isolated: bool,
    /// Whether the op's one region may go to a worker thread when the
    /// custom parser asks for it (custom-form isolated ops with a single
    /// region that are not symbol tables, such as `func.func`).
    pub(crate) spawnable: bool,
    /// The task parsing that region on a worker, once handed out.
    pub(crate) spawned: Option<super::parallel::SpawnedTask>,
}

impl<'a> Parser<'a> {
    /// Parses the whole file.
    pub(crate) fn parse_top_level(&mut self) -> ParseResult<OwnedOp> {
        self.parse_top_level_ops().map_err(|e| self.lexer_error().unwrap_or(e))
    }

    /// [`Parser::parse_top_level`] without the lexer's errors.
    fn parse_top_level_ops(&mut self) -> ParseResult<OwnedOp> {
        let ctx = self.ctx;
        self.bodies.push(Body::new());
        self.scopes.push(IsolatedScope::default());
        // The implicit top-level block, like MLIR's.
        let block = self.body().create_block();
        self.scopes.last_mut().expect("scope").push_region();
        loop {
            match self.tok.kind {
                T::Eof => {
                    self.install_spawned()?;
                    break;
                }
                T::HashIdent | T::BangIdent if self.next_is_equal() => {
                    if !self.parse_alias_run()? {
                        self.parse_alias_def(self.tok.kind == T::HashIdent)?;
                    }
                }
                T::FileMetadataBegin => {
                    return Err(self.error_here("file metadata dictionaries ({-# ... #-}) are not supported by lf"))
                }
                _ => {
                    let op = self.parse_operation()?;
                    self.body().append_op(block, op);
                }
            }
        }
        self.scopes.last_mut().expect("scope").pop_region();
        let (max_depth, deepest) = self.max_depth;
        let wrapped = {
            let body = self.body();
            let mut ops = body.block_ops(block);
            let first = ops.next();
            !(first.is_some_and(|op| body.op_name(op) == ctx.op_name("builtin.module")) && ops.next().is_none())
        };
        if wrapped && max_depth >= super::MAX_NESTING {
            // The implicit module adds a level: its print would not parse back.
            return Err(self.error_at(
                deepest,
                format!(
                    "nesting too deep (more than {} levels inside the implicit module)",
                    super::MAX_NESTING - 1
                ),
            ));
        }
        self.check_forward_refs()?;
        self.resolve_deferred_locs()?;
        let mut body = self.bodies.pop().expect("top body");
        let ops: Vec<OpId> = body.block_ops(block).collect();
        let module_name = ctx.op_name("builtin.module");
        if ops.len() == 1 && body.op_name(ops[0]) == module_name {
            body.detach_op(ops[0]);
            return Ok(OwnedOp { body, op: ops[0] });
        }
        // Wrap everything into an implicit module: the top body becomes the
        // module's nested body (no copy), its implicit block the module's block.
        let region = body.create_region();
        body.append_block(region, block);
        let mut top = Body::new();
        let mut st = OperationState::new(
            module_name,
            Location::FileLineCol {
                file: self.file,
                line: 0,
                col: 0,
            },
        );
        st.regions = vec![region];
        st.nested = Some(Box::new(body));
        let op = top.create_op(st);
        Ok(OwnedOp { body: top, op })
    }

    pub(crate) fn next_is_equal(&self) -> bool {
        let mut l = self.lexer.clone();
        l.next_token().kind == T::Equal
    }

    pub(crate) fn parse_alias_def(&mut self, is_attr: bool) -> ParseResult<()> {
        let name = &self.text()[1..];
        let tok = self.tok;
        if name.contains('.') {
            return Err(self.error_here("expected identifier without '.' in alias definition"));
        }
        if name.bytes().next().is_some_and(|c| c.is_ascii_digit()) {
            return Err(self.error_here("expected an alias identifier, not a number"));
        }
        self.bump();
        self.expect(T::Equal, "'=' in alias definition")?;
        // The nesting of the value, on its own: it counts where the alias is used.
        let outer_max = std::mem::replace(&mut self.max_depth, (0, self.tok));
        if is_attr {
            if self.aliases.attrs.contains_key(name) {
                return Err(self.error_at(tok, format!("redefinition of attribute alias id '{name}'")));
            }
            let a = self.parse_attribute()?;
            self.aliases.to_mut().attrs.insert(name, a);
        } else {
            if self.aliases.types.contains_key(name) {
                return Err(self.error_at(tok, format!("redefinition of type alias id '{name}'")));
            }
            let t = self.parse_type()?;
            self.aliases.to_mut().types.insert(name, t);
        }
        let (inner, _) = std::mem::replace(&mut self.max_depth, outer_max);
        self.aliases.to_mut().depths.insert((is_attr, name), inner);
        Ok(())
    }

    fn resolve_deferred_locs(&mut self) -> ParseResult<()> {
        if self.deferred_locs.is_empty() {
            return Ok(());
        }
        let mut table: rustc_hash::FxHashMap<Attribute, Attribute> = rustc_hash::FxHashMap::default();
        let mut uses: Vec<_> = self
            .deferred_locs
            .iter()
            .map(|(name, (p, tok))| (tok.start, *tok, *name, *p))
            .collect();
        // As MLIR, the first use (in the file) of a bad alias is reported.
        uses.sort_unstable_by_key(|u| u.0);
        for (_, tok, name, placeholder) in uses {
            match self.aliases.attrs.get(name) {
                Some(a) if self.ctx.attr_data(*a).is_location() => {
                    table.insert(placeholder, *a);
                }
                Some(a) => {
                    let found = crate::printer::attr_to_string(self.ctx, *a);
                    return Err(self.error_at(tok, format!("expected location, but found '{found}'")));
                }
                None => return Err(self.error_at(tok, "operation location alias was never defined")),
            }
        }
        let ctx = self.ctx;
        let fix = |l: Location| -> Location {
            match l {
                Location::Attr(a) => match table.get(&a) {
                    Some(r) => Location::from_attr(ctx, *r),
                    None => l,
                },
                other => other,
            }
        };
        let body = self.bodies.last_mut().expect("top body");
        crate::walk::for_each_body_mut(body, &mut |b: &mut Body| {
            for i in 0..b.ops.len() {
                b.ops[i].loc = crate::location::PackedLoc::new(fix(b.ops[i].loc.get()));
            }
            for blk in b.blocks.iter_mut() {
                for l in blk.arg_locs.iter_mut() {
                    *l = fix(*l);
                }
            }
        });
        let _ = DEFERRED_LOC_DIALECT;
        Ok(())
    }

    fn check_forward_refs(&mut self) -> ParseResult<()> {
        let scope = self.scopes.pop().expect("scope");
        if let Some(f) = scope.forward.values().min_by_key(|f| (f.pos.line, f.pos.col)) {
            let _ = f.placeholder;
            let name = scope
                .forward
                .iter()
                .find(|(_, v)| v.pos == f.pos)
                .map(|(k, _)| k.0)
                .unwrap_or("");
            return Err(Box::new(Diagnostic::error(
                Some(f.pos.clone()),
                format!("use of undeclared SSA value name '%{name}'"),
            )));
        }
        Ok(())
    }

    // ------------------------------------------------------------ operations

    /// Parses one operation (generic or custom) and returns it detached.
    pub(crate) fn parse_operation(&mut self) -> ParseResult<OpId> {
        self.note_progress();
        let start_tok = self.tok;
        let mut results: smallvec::SmallVec<[ResultName<'a>; 2]> = smallvec::SmallVec::new();
        if self.at(T::PercentIdent) {
            loop {
                if !self.at(T::PercentIdent) {
                    return Err(self.error_here("expected valid ssa identifier"));
                }
                let tok = self.tok;
                let name = &self.text()[1..];
                self.bump();
                let mut count = 1;
                if self.eat(T::Colon) {
                    if !self.at(T::Integer) {
                        return Err(self.error_here("expected integer number of results"));
                    }
                    count = self
                        .text()
                        .parse::<u32>()
                        .ok()
                        .filter(|c| *c > 0)
                        .ok_or_else(|| self.error_here("expected named operation to have at least 1 result"))?;
                    self.bump();
                }
                results.push(ResultName { name, count, tok });
                if !self.eat(T::Comma) {
                    break;
                }
            }
            self.expect(T::Equal, "'=' after SSA name")?;
        }
        let op_tok = self.tok;
        let loc = self.loc_of(op_tok);
        let op = match self.tok.kind {
            T::String => self.parse_generic_op(loc)?,
            T::BareIdent => self.parse_custom_op(loc)?,
            _ => return Err(self.error_here("expected operation name in quotes")),
        };
        let _ = start_tok;
        // Bind results.
        let defined: u32 = results.iter().map(|r| r.count).sum();
        let produced = self.body().num_results(op) as u32;
        if !results.is_empty() && defined != produced {
            return Err(self.error_at(
                results[0].tok,
                format!("operation defines {produced} results but was provided {defined} to bind"),
            ));
        }
        let mut next = 0u32;
        for r in results {
            let first = self.body().result(op, next as usize);
            self.define_value(r.name, first, r.count, r.tok)?;
            next += r.count;
        }
        Ok(op)
    }

    /// Registers `%name` as `count` values starting at `first`, resolving
    /// earlier forward references.
    pub(crate) fn define_value(&mut self, name: &'a str, first: Value, count: u32, tok: Token) -> ParseResult<()> {
        let pos = SourcePosLite {
            line: tok.line,
            col: tok.col,
        };
        let scope = self.scopes.last_mut().expect("scope");
        if let Some(prev) = scope.values.get(name) {
            let prev_pos = prev.pos;
            let d = Diagnostic::error(Some(self.pos_of(tok)), format!("redefinition of SSA value '%{name}'"))
                .with_note(Some(self.lite_pos(prev_pos)), "previously defined here".to_string());
            return Err(Box::new(d));
        }
        scope.values.insert(name, Definition { first, count, pos });
        scope.note_defined(name);
        if scope.forward.is_empty() {
            return Ok(());
        }
        for i in 0..count {
            let scope = self.scopes.last_mut().expect("scope");
            if let Some(f) = scope.forward.remove(&(name, i)) {
                let real = Value(first.0 + i);
                let real_ty = self.body().value_type(real);
                if real_ty != f.ty {
                    let d = Diagnostic::error(
                        Some(self.pos_of(tok)),
                        format!(
                            "definition of SSA value '%{name}#{i}' has type {}",
                            crate::printer::type_to_string(self.ctx, real_ty)
                        ),
                    )
                    .with_note(
                        Some(f.pos),
                        format!(
                            "previously used here with type {}",
                            crate::printer::type_to_string(self.ctx, f.ty)
                        ),
                    );
                    return Err(Box::new(d));
                }
                self.body().replace_all_uses(f.placeholder, real);
                let scope = self.scopes.last_mut().expect("scope");
                scope.resolved.insert(f.placeholder, f.pos);
            }
        }
        Ok(())
    }

    /// The file position of a position recorded in a scope.
    fn lite_pos(&self, p: SourcePosLite) -> SourcePos {
        let tok = Token {
            kind: T::Eof,
            start: 0,
            end: 0,
            line: p.line,
            col: p.col,
        };
        self.pos_of(tok)
    }

    /// Parses `%name` or `%name#N` at the current token.
    pub(crate) fn parse_operand_ref(&mut self) -> ParseResult<UnresolvedOperand<'a>> {
        if !self.at(T::PercentIdent) {
            return Err(self.error_here("expected SSA operand"));
        }
        let tok = self.tok;
        let name = &self.text()[1..];
        self.bump();
        let mut number = 0;
        if self.at(T::HashIdent) && self.tok.start == tok.end {
            let t = &self.text()[1..];
            number = t
                .parse::<u32>()
                .map_err(|_| self.error_here("invalid SSA value result number"))?;
            self.bump();
        }
        Ok(UnresolvedOperand { name, number, tok })
    }

    /// Resolves an operand reference to a value of type `ty`.
    pub(crate) fn resolve_operand(&mut self, r: UnresolvedOperand<'a>, ty: Type) -> ParseResult<Value> {
        let scope = self.scopes.last_mut().expect("scope");
        if let Some(d) = scope.values.get(r.name).copied() {
            if r.number >= d.count {
                return Err(self.error_at(r.tok, "reference to invalid result number".to_string()));
            }
            let v = Value(d.first.0 + r.number);
            let vty = self.body().value_type(v);
            if vty != ty {
                let ctx = self.ctx;
                let d = Diagnostic::error(
                    Some(self.pos_of(r.tok)),
                    format!(
                        "use of value '%{}' expects different type than prior uses: '{}' vs '{}'",
                        r.name,
                        crate::printer::type_to_string(ctx, ty),
                        crate::printer::type_to_string(ctx, vty)
                    ),
                )
                .with_note(Some(self.lite_pos(d.pos)), "prior use here".to_string());
                return Err(Box::new(d));
            }
            return Ok(v);
        }
        let key = (r.name, r.number);
        if let Some(f) = scope.forward.get(&key) {
            if f.ty != ty {
                let fty = f.ty;
                let ctx = self.ctx;
                return Err(self.error_at(
                    r.tok,
                    format!(
                        "use of value '%{}' expects different type than prior uses: '{}' vs '{}'",
                        r.name,
                        crate::printer::type_to_string(ctx, ty),
                        crate::printer::type_to_string(ctx, fty)
                    ),
                ));
            }
            return Ok(f.placeholder);
        }
        let pos = self.pos_of(r.tok);
        let placeholder = self.body().create_placeholder(ty);
        self.scopes
            .last_mut()
            .expect("scope")
            .forward
            .insert(key, ForwardRef { placeholder, ty, pos });
        Ok(placeholder)
    }

    fn parse_generic_op(&mut self, loc: Location) -> ParseResult<OpId> {
        let ctx: &'a Context = self.ctx;
        let raw_name = self.text();
        let (op_name, def) = match self.memo.op_names.get(raw_name) {
            Some(&n) => {
                self.bump();
                n
            }
            None => {
                let name = self.string_value()?;
                if name.is_empty() {
                    return Err(self.error_here("empty operation name is invalid"));
                }
                self.bump();
                let n = ctx.op_name(&name);
                let entry = (n, ctx.op_def(n));
                Memo::insert(&mut self.memo.op_names, raw_name, entry);
                entry
            }
        };
        // Like MLIR, point just after the name.
        self.check_op_allowed(ctx.op_name_str(op_name), def, self.tok)?;
        let isolated = def.is_some_and(|d| d.has(Traits::ISOLATED_FROM_ABOVE));
        let mut pending = PendingOp {
            state: self.new_state(op_name, loc),
            attrs: Vec::new(),
            props: crate::DictEntries::new(),
            isolated,
            spawnable: false,
            spawned: None,
        };

        self.expect(T::LParen, "'(' to start operand list")?;
        let mut operands: smallvec::SmallVec<[UnresolvedOperand<'a>; 4]> = smallvec::SmallVec::new();
        self.parse_comma_list_with(T::RParen, "')' to end operand list", |p| {
            operands.push(p.parse_operand_ref()?);
            Ok(())
        })?;
        if self.eat(T::LSquare) {
            loop {
                if !self.at(T::CaretIdent) {
                    return Err(self.error_here("expected block name"));
                }
                let b = self.block_ref()?;
                pending.state.successors.push(b);
                if !self.eat(T::Comma) {
                    break;
                }
            }
            self.expect(T::RSquare, "']' to end successor list")?;
        }
        if self.at(T::Less) {
            let start = self.tok.start as usize;
            let key = self.props_key(start);
            let hit = key
                .and_then(|k| self.memo.props.get(k).copied())
                .filter(|&(_, rel)| self.memo_hit_ok(rel));
            match hit {
                Some((props, _)) => {
                    self.skip_raw_to(start + key.map_or(0, str::len));
                    pending.state.props = Some(props);
                }
                None => {
                    self.bump();
                    let (props, rel) = self.with_rel_depth(|p| p.parse_attribute())?;
                    if !matches!(ctx.attr_data(props), AttrData::Dictionary(_)) {
                        return Err(self.error_here("expected a dictionary attribute for properties"));
                    }
                    if let Some(k) = key {
                        if self.at(T::Greater) && self.tok.end as usize == start + k.len() {
                            Memo::insert(&mut self.memo.props, k, (props, rel));
                        }
                    }
                    self.expect(T::Greater, "'>' to close properties")?;
                    pending.state.props = Some(props);
                }
            }
        }
        let mut spawned = None;
        if self.at(T::LParen) {
            // Symbol tables (modules) hold the functions: parse them here, so
            // that their functions are what goes to the worker threads.
            if !def.is_some_and(|d| d.has(Traits::SYMBOL_TABLE)) {
                spawned = self.spawn_regions(&mut pending);
            }
            if spawned.is_none() {
                self.parse_region_list(&mut pending)?;
            }
        }
        if self.at(T::LBrace) {
            pending.attrs = self.parse_attr_dict_entries()?;
        }
        self.expect(T::Colon, "':' followed by operation type")?;
        let ty_tok = self.tok;
        let fty = self.parse_type_ending_line()?;
        let (inputs, results) = match ctx.type_data(fty) {
            crate::types::TypeData::Function { inputs, results } => (inputs, results),
            _ => return Err(self.error_at(ty_tok, "expected function type")),
        };
        if inputs.len() != operands.len() {
            return Err(self.error_at(
                ty_tok,
                format!(
                    "expected {} operand type{} but had {}",
                    operands.len(),
                    if operands.len() == 1 { "" } else { "s" },
                    inputs.len()
                ),
            ));
        }
        for (r, t) in operands.iter().zip(inputs.iter()) {
            let v = self.resolve_operand(*r, *t)?;
            pending.state.operands.push(v);
        }
        pending.state.result_types.clear();
        pending.state.result_types.extend_from_slice(results);
        if let Some(l) = self.parse_optional_trailing_loc()? {
            pending.state.loc = l;
        }
        let op = self.finish_op(pending)?;
        if let Some(task) = spawned {
            self.note_spawned(op, task);
        }
        Ok(op)
    }

    /// Parses `( region (, region)* )` of a generic op (at the `(`).
    pub(crate) fn parse_region_list(&mut self, pending: &mut PendingOp) -> ParseResult<()> {
        self.bump();
        loop {
            let r = self.parse_region_for(pending, &[])?;
            pending.state.regions.push(r);
            if !self.eat(T::Comma) {
                break;
            }
        }
        self.expect(T::RParen, "')' to end region list")
    }

    /// The text of a properties dictionary `<{...}>` starting at `start`, up
    /// to the first `}>` on the line, if it may be memoized.
    fn props_key(&self, start: usize) -> Option<&'a str> {
        let src: &'a str = self.src;
        let rest = &src.as_bytes()[start..src.len().min(start + Memo::MAX_LEN + 1)];
        if !rest.starts_with(b"<{") {
            return None;
        }
        let end = memchr::memmem::find(rest, b"}>")? + 2;
        let key = &src[start..start + end];
        (!key.contains('\n')).then_some(key)
    }

    /// Creates the op from what was parsed, in the current body.
    pub(crate) fn finish_op(&mut self, mut pending: PendingOp) -> ParseResult<OpId> {
        let scope = self.scopes.last().expect("scope");
        if !scope.resolved.is_empty() {
            // An operand used before its name was defined inside this op's
            // own region: the definition does not reach it.
            if let Some(pos) = pending.state.operands.iter().find_map(|v| scope.resolved.get(v)) {
                return Err(Box::new(Diagnostic::error(
                    Some(pos.clone()),
                    "use of undeclared SSA value name".to_string(),
                )));
            }
        }
        // An op that declares its inherent attributes keeps them in its
        // properties, also when the custom syntax's attribute dictionary
        // names them (`module @m attributes {sym_visibility = "private"}`).
        if let Some(def) = self
            .ctx
            .op_def(pending.state.name)
            .filter(|d| d.declared || !d.attributes.is_empty())
        {
            crate::ods::normalize_properties(
                self.ctx,
                def,
                &mut pending.state.props,
                &mut pending.props,
                &mut pending.attrs,
            );
        } else if !pending.props.is_empty() {
            let mut entries = std::mem::take(&mut pending.props);
            if let Some(p) = pending.state.props {
                entries.extend_from_slice(self.ctx.attr_data(p).dict_entries());
            }
            pending.state.props = Some(self.ctx.dict_attr_from(entries));
        }
        if !pending.attrs.is_empty() {
            pending.state.attrs = Some(self.ctx.dict_attr(std::mem::take(&mut pending.attrs)));
        }
        if pending.isolated && pending.state.nested.is_none() {
            pending.state.nested = Some(Box::new(Body::new()));
        }
        let op = self.body().create_op_from(&mut pending.state);
        self.spare_states.push(pending.state);
        Ok(op)
    }

    /// An empty state for a new op: a spare one if there is one.
    fn new_state(&mut self, name: crate::OpName, loc: Location) -> OperationState {
        match self.spare_states.pop() {
            Some(mut st) => {
                st.name = name;
                st.loc = loc;
                st
            }
            None => OperationState::new(name, loc),
        }
    }

    fn check_op_allowed(&self, name: &str, def: Option<&'static OpDef>, tok: Token) -> ParseResult<()> {
        if def.is_some() || self.ctx.allows_unregistered_dialects() {
            return Ok(());
        }
        let dialect = name.split_once('.').map_or(name, |(d, _)| d);
        if self.ctx.is_dialect_registered(dialect) {
            return Err(self.error_at(
                tok,
                format!("'{name}' op is not a registered operation of dialect '{dialect}'"),
            ));
        }
        Err(self.error_at(
            tok,
            "operation being parsed with an unregistered dialect. If this is intended, please use --allow-unregistered-dialect with lf-opt".to_string(),
        ))
    }

    fn parse_custom_op(&mut self, loc: Location) -> ParseResult<OpId> {
        let ctx = self.ctx;
        let tok = self.tok;
        let text = self.text();
        let found = self.lookup_custom_op(text);
        let Some((op_name, def)) = found else {
            return Err(self.unknown_custom_op(text));
        };
        let format = ctx.op_format(op_name);
        let parse = def.parse;
        if parse.is_none() && format.is_none() {
            return Err(self.error_at(
                tok,
                format!("op '{}' has no custom syntax; use the generic form", def.name),
            ));
        }
        self.bump();
        let isolated = def.has(Traits::ISOLATED_FROM_ABOVE);
        let pending = PendingOp {
            state: self.new_state(op_name, loc),
            attrs: Vec::new(),
            props: crate::DictEntries::new(),
            isolated,
            spawnable: isolated && def.regions.len() == 1 && !def.has(Traits::SYMBOL_TABLE),
            spawned: None,
        };
        // The op's regions get no default dialect unless its parser pushes
        // one (as `func.func` does).
        self.default_dialects.push("");
        let mut cp = CustomParser {
            p: self,
            pending,
            def,
            name_tok: tok,
        };
        let parsed = match parse {
            Some(parse) => parse(&mut cp),
            None => crate::ods::format::parse_with_format(&mut cp, format.expect("checked above")),
        };
        let mut pending = cp.pending;
        self.default_dialects.pop();
        parsed?;
        if let Some(l) = self.parse_optional_trailing_loc()? {
            pending.state.loc = l;
        }
        let spawned = pending.spawned.take();
        let op = self.finish_op(pending)?;
        if let Some(task) = spawned {
            self.note_spawned(op, task);
        }
        Ok(op)
    }

    /// The registered op a custom-form op name stands for, with its name.
    /// The error for a custom op name that names no registered op, worded
    /// as MLIR's: a name without a dialect prefix is tried in the default
    /// dialect of the enclosing op (`builtin` at the top level), and an
    /// unknown dialect is reported as such. A registered op of a similar
    /// name is suggested.
    fn unknown_custom_op(&self, text: &str) -> Box<Diagnostic> {
        let default = self.default_dialects.last().copied().unwrap_or("builtin");
        let (dialect, full) = match text.split_once('.') {
            Some((d, _)) => (d, None),
            None => (default, Some(format!("{default}.{text}"))),
        };
        let tried = full
            .as_deref()
            .map(|f| format!(" (tried '{f}' as well)"))
            .unwrap_or_default();
        let ops = self.ctx.registered_ops();
        let suggestion = lf_diag::suggest::nearest(full.as_deref().unwrap_or(text), ops.iter().map(|d| d.name));
        let here = self.pos_of(self.tok);
        if !self.ctx.is_dialect_registered(dialect) {
            // The suggestion ends MLIR's note rather than adding one, which
            // `--verify-diagnostics` of a test written for mlir-opt would
            // not expect.
            let dialects = self.ctx.registered_dialects().join(", ");
            let hint = suggestion.map(|s| format!("; did you mean '{s}'?")).unwrap_or_default();
            return Box::new(
                Diagnostic::error(
                    Some(here.clone()),
                    format!("Dialect `{dialect}' not found for custom op '{text}' {tried}"),
                )
                .with_note(Some(here), format!("Available dialects: {dialects}{hint}")),
            );
        }
        let hint = suggestion.map(|s| format!("; did you mean '{s}'?")).unwrap_or_default();
        Box::new(Diagnostic::error(
            Some(here),
            format!("custom op '{text}' is unknown{tried}{hint}"),
        ))
    }

    fn lookup_custom_op(&self, text: &str) -> Option<(crate::OpName, &'static OpDef)> {
        let ctx = self.ctx;
        if text.contains('.') {
            let name = ctx.op_name(text);
            if let Some(d) = ctx.op_def(name) {
                return Some((name, d));
            }
        }
        // As MLIR: only the innermost custom op's default dialect (`func`
        // inside `func.func`, none inside `scf.for`), then `builtin`.
        for d in self
            .default_dialects
            .last()
            .into_iter()
            .chain(std::iter::once(&"builtin"))
        {
            if d.is_empty() {
                continue;
            }
            let full = format!("{d}.{text}");
            let name = ctx.op_name(&full);
            if let Some(def) = ctx.op_def(name) {
                return Some((name, def));
            }
        }
        None
    }

    // ------------------------------------------------------------ regions

    /// Parses a region for `pending` (in a nested body if it is isolated).
    pub(crate) fn parse_region_for(
        &mut self,
        pending: &mut PendingOp,
        entry_args: &[(UnresolvedOperand<'a>, Type, Location)],
    ) -> ParseResult<RegionId> {
        if pending.spawnable && pending.spawned.is_none() && pending.state.regions.is_empty() {
            if let Some(task) = self.spawn_custom_region(pending, entry_args) {
                pending.spawned = Some(task);
                return Ok(RegionId(NONE));
            }
        }
        if pending.isolated {
            let nested = pending.state.nested.take().map(|b| *b).unwrap_or_default();
            self.bodies.push(nested);
            self.scopes.push(IsolatedScope::default());
            let r = self
                .parse_region(entry_args)
                .and_then(|r| self.install_spawned().map(|()| r));
            let r = match r {
                Ok(r) => {
                    self.check_forward_refs()?;
                    r
                }
                Err(e) => {
                    self.scopes.pop();
                    self.bodies.pop();
                    return Err(e);
                }
            };
            let mut nested = self.bodies.pop().expect("nested body");
            nested.shrink_to_fit();
            pending.state.nested = Some(Box::new(nested));
            Ok(r)
        } else {
            self.parse_region(entry_args)
        }
    }

    /// Parses `{ blocks }` into a new detached region of the current body.
    fn parse_region(&mut self, entry_args: &[(UnresolvedOperand<'a>, Type, Location)]) -> ParseResult<RegionId> {
        self.enter()?;
        let r = self.parse_region_inner(entry_args);
        self.leave();
        r
    }

    fn parse_region_inner(&mut self, entry_args: &[(UnresolvedOperand<'a>, Type, Location)]) -> ParseResult<RegionId> {
        self.expect(T::LBrace, "'{' to begin a region")?;
        let region = self.body().create_region();
        self.scopes.last_mut().expect("scope").push_region();
        if self.eat(T::RBrace) {
            if !entry_args.is_empty() {
                // Arguments need a block.
                let b = self.body().create_block();
                self.body().append_block(region, b);
                self.define_entry_args(b, entry_args)?;
            }
            self.scopes.last_mut().expect("scope").pop_region();
            return Ok(region);
        }
        if !self.at(T::CaretIdent) || !entry_args.is_empty() {
            let b = self.body().create_block();
            self.body().append_block(region, b);
            self.define_entry_args(b, entry_args)?;
            if self.at(T::CaretIdent) && !entry_args.is_empty() {
                return Err(self.error_here("invalid block name in region with named arguments"));
            }
            self.parse_block_ops(b)?;
        }
        while self.at(T::CaretIdent) {
            self.parse_labeled_block(region)?;
        }
        self.expect(T::RBrace, "'}' to end a region")?;
        let blocks = self.scopes.last_mut().expect("scope").pop_region();
        if let Some((name, (_, _, pos))) = blocks
            .blocks
            .iter()
            .filter(|(_, (_, defined, _))| !*defined)
            .min_by_key(|(_, (_, _, p))| (p.line, p.col))
        {
            return Err(Box::new(Diagnostic::error(
                Some(pos.clone()),
                format!("reference to an undefined block '{name}'"),
            )));
        }
        Ok(region)
    }

    fn define_entry_args(&mut self, b: BlockId, args: &[(UnresolvedOperand<'a>, Type, Location)]) -> ParseResult<()> {
        for (name, ty, loc) in args {
            let v = self.body().add_block_arg(b, *ty, *loc);
            if !name.name.is_empty() {
                self.define_value(name.name, v, 1, name.tok)?;
            }
        }
        Ok(())
    }

    fn parse_block_ops(&mut self, b: BlockId) -> ParseResult<()> {
        while !matches!(self.tok.kind, T::CaretIdent | T::RBrace | T::Eof) {
            let op = self.parse_operation()?;
            self.body().append_op(b, op);
        }
        Ok(())
    }

    /// A block referenced by name (maybe not yet defined) in the current region.
    fn block_ref(&mut self) -> ParseResult<BlockId> {
        let name = self.text();
        let pos = self.pos_here();
        self.bump();
        let existing = self
            .scopes
            .last()
            .and_then(|s| s.block_scopes.last())
            .and_then(|bs| bs.blocks.get(name))
            .map(|e| e.0);
        if let Some(b) = existing {
            return Ok(b);
        }
        if self.scopes.last().is_none_or(|s| s.block_scopes.is_empty()) {
            return Err(self.error_here("block references are only valid inside a region"));
        }
        let b = self.body().create_block();
        let bs = self
            .scopes
            .last_mut()
            .and_then(|s| s.block_scopes.last_mut())
            .expect("block scope");
        bs.blocks.insert(name, (b, false, pos));
        Ok(b)
    }

    fn parse_labeled_block(&mut self, region: RegionId) -> ParseResult<()> {
        let name = self.text();
        let tok = self.tok;
        let pos = self.pos_here();
        self.bump();
        let scope = self.scopes.last_mut().expect("scope");
        let bs = scope.block_scopes.last_mut().expect("block scope");
        let b = match bs.blocks.get_mut(name) {
            Some(e) if e.1 => {
                let prev = e.2.clone();
                let d = Diagnostic::error(Some(pos), format!("redefinition of block '{name}'"))
                    .with_note(Some(prev), "previously defined here".to_string());
                return Err(Box::new(d));
            }
            Some(e) => {
                e.1 = true;
                e.2 = pos;
                e.0
            }
            None => {
                let b = self.body().create_block();
                let bs = self
                    .scopes
                    .last_mut()
                    .and_then(|s| s.block_scopes.last_mut())
                    .expect("block scope");
                bs.blocks.insert(name, (b, true, pos));
                b
            }
        };
        let _ = tok;
        self.body().append_block(region, b);
        if self.eat(T::LParen) && !self.eat(T::RParen) {
            loop {
                let r = self.parse_operand_ref()?;
                if r.number != 0 {
                    return Err(self.error_at(r.tok, "invalid block argument name"));
                }
                self.expect(T::Colon, "':' and type for SSA operand")?;
                let ty = self.parse_type()?;
                let loc = self.parse_optional_trailing_loc()?.unwrap_or(self.loc_of(r.tok));
                let v = self.body().add_block_arg(b, ty, loc);
                self.define_value(r.name, v, 1, r.tok)?;
                if !self.eat(T::Comma) {
                    break;
                }
            }
            self.expect(T::RParen, "')' to end argument list")?;
        }
        self.expect(T::Colon, "':' after block name")?;
        self.parse_block_ops(b)
    }
}

/// The API custom op parsers use. It wraps the parser and the op being built.
pub struct CustomParser<'p, 'a> {
    pub(crate) p: &'p mut Parser<'a>,
    pub(crate) pending: PendingOp,
    pub(crate) def: &'static OpDef,
    /// The op's name.
    pub(crate) name_tok: Token,
}

impl<'p, 'a> CustomParser<'p, 'a> {
    /// The context.
    pub fn ctx(&self) -> &'a Context {
        self.p.ctx
    }

    /// The definition of the op being parsed.
    pub fn def(&self) -> &'static OpDef {
        self.def
    }

    /// An error at the current token.
    pub fn error(&self, msg: impl Into<String>) -> ParseError {
        self.p.error_here(msg)
    }

    /// Where the current token is, for an error reported once more has been
    /// parsed ([`CustomParser::emit_error`]); MLIR's `getCurrentLocation`.
    pub fn current_location(&self) -> Token {
        self.p.tok
    }

    /// Where the op's name is; MLIR's `getNameLoc`.
    pub fn name_location(&self) -> Token {
        self.name_tok
    }

    /// An error at `at` as MLIR's `OpAsmParser::emitError` words it, with
    /// `custom op 'NAME' ` before the message (the errors an op's own parser
    /// reports, as opposed to those of the parsing helpers it calls).
    pub fn emit_error(&self, at: Token, msg: impl Into<String>) -> ParseError {
        self.p
            .error_at(at, format!("custom op '{}' {}", self.def.name, msg.into()))
    }

    /// The location of the op being parsed.
    pub fn op_loc(&self) -> Location {
        self.pending.state.loc
    }

    /// Parses an operand reference (`%x`, `%x#1`).
    pub fn parse_operand(&mut self) -> ParseResult<UnresolvedOperand<'a>> {
        self.p.parse_operand_ref()
    }

    /// Parses an operand reference if one is next.
    pub fn parse_optional_operand(&mut self) -> ParseResult<Option<UnresolvedOperand<'a>>> {
        if self.p.at(T::PercentIdent) {
            self.p.parse_operand_ref().map(Some)
        } else {
            Ok(None)
        }
    }

    /// Resolves an operand to a value of type `ty` and appends it to the op's operands.
    pub fn add_operand(&mut self, r: UnresolvedOperand<'a>, ty: Type) -> ParseResult<Value> {
        let v = self.p.resolve_operand(r, ty)?;
        self.pending.state.operands.push(v);
        Ok(v)
    }

    /// Parses a type.
    pub fn parse_type(&mut self) -> ParseResult<Type> {
        // Shaped types (`memref<32x32xf32>`) are slow to parse and usually
        // end an op's line, the same way many times over.
        if self.p.tok.kind == T::BareIdent && self.p.src.as_bytes().get(self.p.tok.end as usize) == Some(&b'<') {
            return self.p.parse_type_ending_line();
        }
        self.p.parse_type()
    }

    /// Parses a type if the next token can start one.
    pub fn parse_optional_type(&mut self) -> ParseResult<Option<Type>> {
        self.p.parse_optional_type()
    }

    /// Parses an attribute.
    pub fn parse_attribute(&mut self) -> ParseResult<Attribute> {
        self.p.parse_attribute()
    }

    /// Parses an optional `{...}` attribute dictionary into the op's attributes.
    pub fn parse_optional_attr_dict(&mut self) -> ParseResult<()> {
        if self.p.at(T::LBrace) {
            let e = self.p.parse_attr_dict_entries()?;
            self.pending.attrs.extend(e);
        }
        Ok(())
    }

    /// Parses an optional `attributes {...}` into the op's attributes.
    pub fn parse_optional_attr_dict_with_keyword(&mut self) -> ParseResult<()> {
        if self.p.eat_keyword("attributes") {
            let e = self.p.parse_attr_dict_entries()?;
            self.pending.attrs.extend(e);
        }
        Ok(())
    }

    /// Adds a discardable attribute.
    pub fn add_attr(&mut self, name: &str, value: Attribute) {
        let id = self.p.ctx.intern(name);
        self.pending.attrs.push((id, value));
    }

    /// Sets the op's properties dictionary.
    pub fn set_props(&mut self, props: Attribute) {
        self.pending.state.props = Some(props);
    }

    /// Adds result types.
    pub fn add_result_types(&mut self, tys: &[Type]) {
        self.pending.state.result_types.extend_from_slice(tys);
    }

    /// Whether the current token is the keyword `kw`.
    pub fn at_keyword(&self, kw: &str) -> bool {
        self.p.at_keyword(kw)
    }

    /// Consumes keyword `kw` if present.
    pub fn parse_optional_keyword(&mut self, kw: &str) -> bool {
        self.p.eat_keyword(kw)
    }

    /// Consumes keyword `kw` or fails.
    pub fn parse_keyword(&mut self, kw: &str) -> ParseResult<()> {
        if self.p.eat_keyword(kw) {
            Ok(())
        } else {
            Err(self.p.error_here(format!("expected '{kw}'")))
        }
    }

    /// Parses an optional `@symbol` name.
    pub fn parse_optional_symbol_name(&mut self) -> ParseResult<Option<Ident>> {
        if self.p.at(T::AtIdent) {
            let s = self.p.symbol_name()?;
            self.p.bump();
            Ok(Some(s))
        } else {
            Ok(None)
        }
    }

    /// Consumes a punctuation token if present.
    pub fn parse_optional_punct(&mut self, kind: T) -> bool {
        self.p.eat(kind)
    }

    /// Consumes a punctuation token or fails with "expected `what`".
    pub fn parse_punct(&mut self, kind: T, what: &str) -> ParseResult<()> {
        self.p.expect(kind, what)
    }

    /// Whether the current token is of `kind`.
    pub fn at(&self, kind: T) -> bool {
        self.p.at(kind)
    }

    /// Parses a region of the op with the given named entry arguments.
    pub fn parse_region(&mut self, entry_args: &[(UnresolvedOperand<'a>, Type, Location)]) -> ParseResult<RegionId> {
        let r = self.p.parse_region_for(&mut self.pending, entry_args)?;
        self.pending.state.regions.push(r);
        Ok(r)
    }

    /// Ensures every region of the op has at least one block (for ops whose
    /// single block is implicit, like `builtin.module`).
    pub fn ensure_entry_blocks(&mut self) {
        let regions = self.pending.state.regions.clone();
        let body: &mut Body = match self.pending.state.nested.as_deref_mut() {
            Some(b) => b,
            None => self.p.body(),
        };
        for r in regions {
            if body.region_is_empty(r) {
                let b = body.create_block();
                body.append_block(r, b);
            }
        }
    }

    /// Makes the given dialect the default for op names inside the regions
    /// parsed next (`return` means `func.return` inside `func.func`).
    pub fn push_default_dialect(&mut self, dialect: &'static str) {
        self.p.default_dialects.push(dialect);
    }

    /// Undoes [`CustomParser::push_default_dialect`].
    pub fn pop_default_dialect(&mut self) {
        self.p.default_dialects.pop();
    }

    /// Parses a possibly empty comma-separated list of operand references.
    pub fn parse_operand_list(&mut self) -> ParseResult<Vec<UnresolvedOperand<'a>>> {
        let mut v = Vec::new();
        if !self.p.at(T::PercentIdent) {
            return Ok(v);
        }
        loop {
            v.push(self.p.parse_operand_ref()?);
            if !self.p.at(T::Comma) || !self.next_is_operand() {
                break;
            }
            self.p.bump();
        }
        Ok(v)
    }

    fn next_is_operand(&self) -> bool {
        let rest = &self.p.src[self.p.tok.end as usize..];
        rest.trim_start().starts_with('%')
    }

    /// Parses a possibly empty comma-separated list of types.
    pub fn parse_type_list(&mut self) -> ParseResult<Vec<Type>> {
        let mut v = Vec::new();
        let Some(first) = self.p.parse_optional_type()? else {
            return Ok(v);
        };
        v.push(first);
        while self.p.eat(T::Comma) {
            v.push(self.p.parse_type()?);
        }
        Ok(v)
    }

    /// Parses `(inputs) -> results` and returns both lists.
    pub fn parse_function_type_parts(&mut self) -> ParseResult<(Vec<Type>, Vec<Type>)> {
        self.p.expect(T::LParen, "'('")?;
        let inputs = self.p.parse_type_list_until_rparen()?;
        self.p.expect(T::Arrow, "'->'")?;
        let results = self.p.parse_function_result_types()?;
        Ok((inputs, results))
    }

    /// The token kind of a punctuation literal of a format, if it is one.
    fn punct_kind(text: &str) -> Option<T> {
        Some(match text {
            "(" => T::LParen,
            ")" => T::RParen,
            "{" => T::LBrace,
            "}" => T::RBrace,
            "[" => T::LSquare,
            "]" => T::RSquare,
            "<" => T::Less,
            ">" => T::Greater,
            "," => T::Comma,
            "=" => T::Equal,
            ":" => T::Colon,
            "::" => T::ColonColon,
            "?" => T::Question,
            "+" => T::Plus,
            "-" => T::Minus,
            "*" => T::Star,
            "->" => T::Arrow,
            "|" => T::Vertical,
            "..." => T::Ellipsis,
            _ => return None,
        })
    }

    /// Whether the next token is the literal `text` (keyword or punctuation).
    pub fn at_literal(&self, text: &str) -> bool {
        match Self::punct_kind(text) {
            Some(k) => self.p.at(k),
            None => self.p.at_keyword(text),
        }
    }

    /// Consumes the literal `text` or fails with MLIR's "expected '...'".
    pub fn parse_literal(&mut self, text: &str) -> ParseResult<()> {
        let ok = match Self::punct_kind(text) {
            Some(k) => self.p.eat(k),
            None => self.p.eat_keyword(text),
        };
        if ok {
            Ok(())
        } else {
            Err(self.p.error_here(format!("expected '{text}'")))
        }
    }

    /// Consumes the literal `text` if it is next.
    pub fn parse_optional_literal(&mut self, text: &str) -> bool {
        match Self::punct_kind(text) {
            Some(k) => self.p.eat(k),
            None => self.p.eat_keyword(text),
        }
    }

    /// Whether the next token can start a type.
    pub fn at_type_start(&self) -> bool {
        match self.p.tok.kind {
            T::BangIdent | T::LParen => true,
            T::BareIdent => {
                let t = self.p.text();
                matches!(
                    t,
                    "index"
                        | "f16"
                        | "bf16"
                        | "f32"
                        | "f64"
                        | "none"
                        | "memref"
                        | "tensor"
                        | "vector"
                        | "tuple"
                        | "complex"
                ) || super::types::int_type_width(t).is_some()
            }
            _ => false,
        }
    }

    /// Whether the next token can start an attribute.
    pub fn at_attribute_start(&self) -> bool {
        matches!(
            self.p.tok.kind,
            T::HashIdent
                | T::AtIdent
                | T::Integer
                | T::Float
                | T::String
                | T::Minus
                | T::LSquare
                | T::LBrace
                | T::BareIdent
        )
    }

    /// Sets an inherent attribute (a property) of the op.
    pub fn set_prop(&mut self, name: &str, value: Attribute) {
        let id = self.p.ctx.intern(name);
        self.pending.props.retain(|(k, _)| *k != id);
        self.pending.props.push((id, value));
    }

    /// The current token's text (for custom parsers that need to look at it).
    pub fn peek_text(&self) -> &'a str {
        self.p.text()
    }

    /// Consumes a bare identifier and returns it, or fails.
    pub fn parse_bare_ident(&mut self, what: &str) -> ParseResult<&'a str> {
        self.parse_bare_ident_with(|| what.to_string())
    }

    /// [`CustomParser::parse_bare_ident`] with the description of what was
    /// expected built only for the error.
    pub fn parse_bare_ident_with(&mut self, what: impl FnOnce() -> String) -> ParseResult<&'a str> {
        if !self.p.at(T::BareIdent) {
            return Err(self.p.error_here(format!("expected {}", what())));
        }
        let t = self.p.text();
        self.p.bump();
        Ok(t)
    }

    /// Parses an integer literal (with an optional `-`).
    pub fn parse_integer(&mut self) -> ParseResult<i128> {
        let neg = self.p.eat(T::Minus);
        if !self.p.at(T::Integer) {
            return Err(self.p.error_here("expected integer value"));
        }
        let text = self.p.text();
        let v = if let Some(h) = text.strip_prefix("0x") {
            i128::from_str_radix(h, 16)
        } else {
            text.parse::<i128>()
        }
        .map_err(|_| self.p.error_here("integer value too large"))?;
        self.p.bump();
        Ok(if neg { -v } else { v })
    }

    /// Parses a region whose entry arguments come from `args` (used by ops
    /// such as `scf.for`, whose induction variable is declared outside).
    pub fn parse_region_with_args(
        &mut self,
        args: &[(UnresolvedOperand<'a>, Type, Location)],
    ) -> ParseResult<RegionId> {
        self.parse_region(args)
    }
}
