//! The [`Context`]: uniqued types and attributes, interned identifiers and the
//! registry of operations. It is `Sync`: passes running on different functions
//! in parallel share one context.

use crate::attrs::{AttrData, Attribute, LocationData};
use crate::registry::{OpDef, OpName, OpNameInfo};
use crate::types::{FloatKind, Signedness, Type, TypeData};
use crate::uniquer::Uniquer;
use parking_lot::RwLock;
use std::sync::atomic::AtomicPtr;
use string_interner::backend::BucketBackend;
use string_interner::symbol::SymbolU32;
use string_interner::{StringInterner, Symbol};

/// Slots of the per-thread identifier cache (see [`Context::intern`]).
const IDENT_CACHE_SLOTS: usize = 256;
/// Op names whose registration is read from a plain table (see `op_fast`).
const OP_FAST: usize = 1024;
/// Identifiers whose text is read from a plain table (see `ident_fast`).
const IDENT_FAST: usize = 4096;

/// How many one-entry dictionaries each thread remembers (see
/// [`Context::dict_attr_from`]); the memory is cleared when full.
const ONE_ENTRY_DICTS: usize = 1 << 16;

thread_local! {
    /// The one-entry dictionaries this thread made lately, by their entry.
    static ONE_ENTRY_DICT_CACHE: std::cell::RefCell<crate::context_memo::ContextMemo<(Ident, Attribute), Attribute>> =
        std::cell::RefCell::default();
}

thread_local! {
    /// Recently interned identifiers of this thread: (context, ident) by
    /// hash slot. Only a hint: the text is compared before use.
    static IDENT_CACHE: [std::cell::Cell<(usize, u32)>; IDENT_CACHE_SLOTS] =
        const { [const { std::cell::Cell::new((0, 0)) }; IDENT_CACHE_SLOTS] };
}

/// A pointer to the text of an interned identifier (owned by the interner).
struct IdentText(*const str);
// SAFETY: the pointee is immutable, never freed while the context lives,
// and `str` is Sync.
unsafe impl Send for IdentText {}
unsafe impl Sync for IdentText {}

/// Pointers to the first entries of a container whose entries never move
/// (a `boxcar::Vec`), in a plain table: reading one is a load, where the
/// container finds its bucket first. Written under the container's own
/// lock, read without one.
struct FastTable<T> {
    slots: Box<[AtomicPtr<T>]>,
}

impl<T> FastTable<T> {
    /// A table for the first `len` entries, none recorded.
    fn new(len: usize) -> Self {
        FastTable {
            slots: (0..len).map(|_| AtomicPtr::new(std::ptr::null_mut())).collect(),
        }
    }

    /// Records `entry` as entry `index` (nothing past the table's end).
    ///
    /// # Safety
    /// `entry` must not move and must live as long as the table.
    unsafe fn set(&self, index: usize, entry: &T) {
        if let Some(slot) = self.slots.get(index) {
            slot.store(entry as *const T as *mut T, std::sync::atomic::Ordering::Release);
        }
    }

    /// Entry `index`, if recorded.
    #[inline]
    fn get(&self, index: usize) -> Option<&T> {
        let p = self.slots.get(index)?.load(std::sync::atomic::Ordering::Acquire);
        // SAFETY: `set` is given only entries that stay put as long as the
        // table.
        (!p.is_null()).then(|| unsafe { &*p })
    }
}

/// An interned string (identifier, attribute name, file name, symbol name).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Ident(pub(crate) u32);

/// Frequently used types and attributes, created once per context.
#[derive(Copy, Clone, Debug)]
pub struct CommonTypes {
    /// `i1`
    pub i1: Type,
    /// `i8`
    pub i8: Type,
    /// `i16`
    pub i16: Type,
    /// `i32`
    pub i32: Type,
    /// `i64`
    pub i64: Type,
    /// `index`
    pub index: Type,
    /// `f16`
    pub f16: Type,
    /// `bf16`
    pub bf16: Type,
    /// `f32`
    pub f32: Type,
    /// `f64`
    pub f64: Type,
    /// `none`
    pub none: Type,
    /// `unit`
    pub unit: Attribute,
    /// `{}`
    pub empty_dict: Attribute,
    /// `loc(unknown)`
    pub unknown_loc: Attribute,
}

/// Owns everything that is uniqued or interned, and the op registry.
pub struct Context {
    types: Uniquer<TypeData>,
    attrs: Uniquer<AttrData>,
    idents: RwLock<StringInterner<BucketBackend<SymbolU32>>>,
    /// The text of each identifier by id, readable without a lock (pushed
    /// under `idents`' write lock, so indices match the interner's symbols).
    ident_texts: boxcar::Vec<IdentText>,
    /// The entries of `ident_texts` of the first [`IDENT_FAST`]
    /// identifiers (attribute names among them): each dictionary look-up
    /// reads identifiers' texts.
    ident_fast: FastTable<IdentText>,
    op_names: Uniquer<Box<str>>,
    /// The registration of each op name, by id: an entry of
    /// `registrations` (whose entries never move), null if unregistered.
    /// Read without a lock: op definitions are looked up on every op by
    /// every thread. Pushed only under `op_infos_growth`, so entries are
    /// completed in index order and every index below `count()` is
    /// initialized (boxcar counts completed pushes, which racing pushes may
    /// complete out of order).
    op_infos: boxcar::Vec<AtomicPtr<OpNameInfo>>,
    /// The registrations of the first [`OP_FAST`] names (the registered
    /// ops get theirs first).
    op_fast: FastTable<OpNameInfo>,
    /// Serializes pushes to `op_infos`.
    op_infos_growth: parking_lot::Mutex<()>,
    /// Every registration made (a later one for the same name replaces the
    /// earlier one, as `lf-dialects` does for `builtin.module`).
    registrations: boxcar::Vec<OpNameInfo>,
    dialects: RwLock<Vec<Box<str>>>,
    allow_unregistered: std::sync::atomic::AtomicBool,
    common: CommonTypes,
    /// Per-context state of other crates, by type: see [`Context::extension`].
    extensions: RwLock<Extensions>,
    /// Distinct for every context made by this process: see [`Context::uid`].
    uid: u64,
    /// See [`Context::verify_epoch`]; renewed by every registration.
    verify_epoch: std::sync::atomic::AtomicU64,
}

/// The next [`Context::verify_epoch`] (0 is never one).
static NEXT_VERIFY_EPOCH: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A number no context of this process had before.
fn new_verify_epoch() -> u64 {
    NEXT_VERIFY_EPOCH.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// The next [`Context::uid`].
static NEXT_CONTEXT_UID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// The map behind [`Context::extension`].
type Extensions = rustc_hash::FxHashMap<std::any::TypeId, std::sync::Arc<dyn std::any::Any + Send + Sync>>;

impl Default for Context {
    fn default() -> Self {
        Self::new()
    }
}

impl Context {
    /// A context with the builtin dialect registered.
    pub fn new() -> Self {
        let types = Uniquer::new();
        let attrs = Uniquer::new();
        let t = |d| Type(types.intern(d));
        let int = |w| TypeData::Integer {
            width: w,
            signedness: Signedness::Signless,
        };
        let common_types = (
            t(int(1)),
            t(int(8)),
            t(int(16)),
            t(int(32)),
            t(int(64)),
            t(TypeData::Index),
            t(TypeData::Float(FloatKind::F16)),
            t(TypeData::Float(FloatKind::BF16)),
            t(TypeData::Float(FloatKind::F32)),
            t(TypeData::Float(FloatKind::F64)),
            t(TypeData::None),
        );
        let unit = Attribute(attrs.intern(AttrData::Unit));
        let empty_dict = Attribute(attrs.intern(AttrData::Dictionary(crate::attrs::DictEntries::new())));
        let unknown_loc = Attribute(attrs.intern(AttrData::Location(LocationData::Unknown)));
        let common = CommonTypes {
            i1: common_types.0,
            i8: common_types.1,
            i16: common_types.2,
            i32: common_types.3,
            i64: common_types.4,
            index: common_types.5,
            f16: common_types.6,
            bf16: common_types.7,
            f32: common_types.8,
            f64: common_types.9,
            none: common_types.10,
            unit,
            empty_dict,
            unknown_loc,
        };
        let ctx = Context {
            types,
            attrs,
            idents: RwLock::new(StringInterner::new()),
            ident_texts: boxcar::Vec::new(),
            ident_fast: FastTable::new(IDENT_FAST),
            op_names: Uniquer::new(),
            op_infos: boxcar::Vec::new(),
            op_fast: FastTable::new(OP_FAST),
            op_infos_growth: parking_lot::Mutex::new(()),
            registrations: boxcar::Vec::new(),
            dialects: RwLock::new(Vec::new()),
            allow_unregistered: false.into(),
            common,
            extensions: RwLock::new(Extensions::default()),
            uid: NEXT_CONTEXT_UID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            verify_epoch: new_verify_epoch().into(),
        };
        crate::builtin::register(&ctx);
        ctx
    }

    /// State of type `T` kept for the lifetime of this context and shared by
    /// every thread, created with `T::default()` on first use: the place for
    /// caches of values derived from uniqued attributes (uniqued values stay
    /// valid as long as the context, so such a cache never goes stale).
    pub fn extension<T: Default + Send + Sync + 'static>(&self) -> std::sync::Arc<T> {
        let key = std::any::TypeId::of::<T>();
        let found = self.extensions.read().get(&key).cloned();
        let any = found.unwrap_or_else(|| {
            let mut all = self.extensions.write();
            all.entry(key)
                .or_insert_with(|| std::sync::Arc::new(T::default()))
                .clone()
        });
        any.downcast::<T>().expect("extension stored under its own TypeId")
    }

    /// A number no other context of this process has had or will have
    /// (unlike the context's address, which a later context may reuse): the
    /// key for per-thread caches of values of this context.
    #[inline]
    pub fn uid(&self) -> u64 {
        self.uid
    }

    /// A number that names this context with the op registrations it has
    /// now: distinct for every context of this process and renewed by every
    /// [`Context::register_op`] that changes a registration. What the
    /// verifier learned of an op's declaration holds while it stays the same.
    #[inline]
    pub fn verify_epoch(&self) -> u64 {
        self.verify_epoch.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Frequently used types and attributes.
    #[inline]
    pub fn common(&self) -> &CommonTypes {
        &self.common
    }

    // ----- identifiers -----

    /// Interns a string.
    pub fn intern(&self, s: &str) -> Ident {
        // A per-thread cache of recent identifiers spares the shared lock.
        let me = self as *const Self as usize;
        let hash = std::hash::BuildHasher::hash_one(&rustc_hash::FxBuildHasher, s);
        let slot = hash as usize % IDENT_CACHE_SLOTS;
        let (owner, id) = IDENT_CACHE.with(|c| c[slot].get());
        if owner == me && (id as usize) < self.ident_texts.count() && self.ident_str(Ident(id)) == s {
            return Ident(id);
        }
        let found = self.intern_shared(s);
        IDENT_CACHE.with(|c| c[slot].set((me, found.0)));
        found
    }

    /// [`Context::intern`] through the shared interner.
    fn intern_shared(&self, s: &str) -> Ident {
        if let Some(sym) = self.idents.read().get(s) {
            return Ident(sym.to_usize() as u32);
        }
        let mut idents = self.idents.write();
        let sym = idents.get_or_intern(s);
        let id = sym.to_usize();
        if id == self.ident_texts.count() {
            let text: &str = idents.resolve(sym).expect("just interned");
            // SAFETY: the bucket backend never moves or frees an interned
            // string while the interner lives, and the interner lives as long
            // as `self` (strings are never removed); `ident_texts` is dropped
            // with it and hands out the text only for `&self`'s lifetime.
            let index = self.ident_texts.push(IdentText(text as *const str));
            // SAFETY: `ident_texts`' entries never move and live as long as
            // `self`, as the table does.
            unsafe { self.ident_fast.set(index, &self.ident_texts[index]) };
        }
        Ident(id as u32)
    }

    /// Looks a string up without interning it.
    pub fn lookup_ident(&self, s: &str) -> Option<Ident> {
        self.idents.read().get(s).map(|sym| Ident(sym.to_usize() as u32))
    }

    /// The text of an interned string (without taking a lock).
    #[inline]
    pub fn ident_str(&self, id: Ident) -> &str {
        let i = id.0 as usize;
        let text = self.ident_fast.get(i).unwrap_or_else(|| &self.ident_texts[i]).0;
        // SAFETY: see `intern`: the text lives as long as `self`.
        unsafe { &*text }
    }

    // ----- types -----

    /// Uniques a type.
    pub fn get_type(&self, data: TypeData) -> Type {
        Type(self.types.intern(data))
    }

    /// The data of a type.
    #[inline]
    pub fn type_data(&self, ty: Type) -> &TypeData {
        self.types.get(ty.0)
    }

    /// `iN` (signless).
    pub fn integer_type(&self, width: u32) -> Type {
        match width {
            1 => self.common.i1,
            8 => self.common.i8,
            16 => self.common.i16,
            32 => self.common.i32,
            64 => self.common.i64,
            _ => self.get_type(TypeData::Integer {
                width,
                signedness: Signedness::Signless,
            }),
        }
    }

    /// A function type.
    pub fn function_type(&self, inputs: &[Type], results: &[Type]) -> Type {
        self.get_type(TypeData::Function {
            inputs: inputs.into(),
            results: results.into(),
        })
    }

    // ----- attributes -----

    /// Uniques an attribute.
    pub fn get_attr(&self, data: AttrData) -> Attribute {
        Attribute(self.attrs.intern(data))
    }

    /// The data of an attribute.
    #[inline]
    pub fn attr_data(&self, attr: Attribute) -> &AttrData {
        self.attrs.get(attr.0)
    }

    /// An integer attribute of the given type.
    pub fn integer_attr(&self, value: i128, ty: Type) -> Attribute {
        self.get_attr(AttrData::Integer { value, ty })
    }

    /// A string attribute.
    pub fn string_attr(&self, value: &str) -> Attribute {
        self.get_attr(AttrData::String {
            value: value.into(),
            ty: None,
        })
    }

    /// A dictionary attribute; `entries` are sorted by name here (later
    /// duplicates of a name are kept, the verifier of the parser rejects them).
    pub fn dict_attr(&self, entries: Vec<(Ident, Attribute)>) -> Attribute {
        self.dict_attr_from(crate::attrs::DictEntries::from_vec(entries))
    }

    /// [`Context::dict_attr`] from entries kept inline (no allocation for
    /// the usual few).
    pub fn dict_attr_from(&self, mut entries: crate::attrs::DictEntries) -> Attribute {
        match entries.len() {
            0 => self.common.empty_dict,
            1 => self.one_entry_dict(entries[0]),
            _ => {
                entries.sort_by(|a, b| self.ident_str(a.0).cmp(self.ident_str(b.0)));
                self.get_attr(AttrData::Dictionary(entries))
            }
        }
    }

    /// The dictionary `{key = value}`: most ops' properties (`{map = ...}`
    /// of an affine access, `{value = ...}` of a constant), made for every
    /// op parsed or rewritten. Each thread remembers the ones it made (up to
    /// [`ONE_ENTRY_DICTS`]), so that most of them are found without hashing
    /// the entries or reading the shared table.
    fn one_entry_dict(&self, entry: (Ident, Attribute)) -> Attribute {
        let found = ONE_ENTRY_DICT_CACHE.try_with(|cache| cache.borrow().get(self, &entry).copied());
        if let Ok(Some(a)) = found {
            return a;
        }
        let mut entries = crate::attrs::DictEntries::new();
        entries.push(entry);
        let a = self.get_attr(AttrData::Dictionary(entries));
        let _ = ONE_ENTRY_DICT_CACHE.try_with(|cache| cache.borrow_mut().insert(self, entry, a, ONE_ENTRY_DICTS));
        a
    }

    /// A `loc("file":line:col)` location attribute.
    pub fn file_loc(&self, file: Ident, line: u32, col: u32) -> Attribute {
        self.get_attr(AttrData::Location(LocationData::FileLineCol { file, line, col }))
    }

    /// Number of distinct types and attributes (for statistics and tests).
    pub fn uniqued_counts(&self) -> (usize, usize) {
        (self.types.len(), self.attrs.len())
    }

    /// Looks up an attribute without creating it.
    pub fn lookup_attr(&self, data: &AttrData) -> Option<Attribute> {
        self.attrs.lookup(data).map(Attribute)
    }

    // ----- operations -----

    /// Interns an operation name (registered or not).
    pub fn op_name(&self, name: &str) -> OpName {
        // Known names (nearly every call) need no allocation.
        if let Some(id) = self.op_names.lookup_borrowed(name) {
            if (id as usize) < self.op_infos.count() {
                return OpName(id);
            }
        }
        let id = self.op_names.intern(name.into());
        if self.op_infos.count() <= id as usize {
            // Another thread may have interned a later name first: fill the
            // slots up to this id, one push at a time (see `op_infos`).
            let _growing = self.op_infos_growth.lock();
            while self.op_infos.count() <= id as usize {
                self.op_infos.push(AtomicPtr::new(std::ptr::null_mut()));
            }
        }
        OpName(id)
    }

    /// The full name of an op name (`dialect.op`).
    pub fn op_name_str(&self, name: OpName) -> &str {
        self.op_names.get(name.0)
    }

    /// The definition of a registered op, `None` for unregistered ones.
    #[inline]
    pub fn op_def(&self, name: OpName) -> Option<&'static OpDef> {
        self.registration(name).map(|i| i.def)
    }

    #[inline]
    fn registration(&self, name: OpName) -> Option<&OpNameInfo> {
        let i = name.0 as usize;
        if let Some(info) = self.op_fast.get(i) {
            return Some(info);
        }
        let info = self.op_infos[i].load(std::sync::atomic::Ordering::Acquire);
        // SAFETY: a non-null entry points into `registrations`, whose
        // entries never move and live as long as `self`.
        (!info.is_null()).then(|| unsafe { &*info })
    }

    /// The declaration and the memory effect kinds of a registered op (see
    /// [`crate::interfaces::own_effect_kinds`]; `None` inside: unknown).
    #[inline]
    pub fn op_def_and_effects(&self, name: OpName) -> Option<(&'static OpDef, Option<crate::interfaces::EffectKinds>)> {
        self.registration(name).map(|i| (i.def, i.effect_kinds))
    }

    /// The compiled declarative format of a registered op, if it has one.
    #[inline]
    pub fn op_format(&self, name: OpName) -> Option<&'static crate::ods::format::Format> {
        self.registration(name).and_then(|i| i.format)
    }

    /// Registers an op definition (and its dialect).
    ///
    /// A later registration under the same name replaces the earlier one;
    /// registering the same definition again does nothing.
    ///
    /// # Panics
    /// If the op's declarative format is malformed (a bug in the declaration,
    /// which the dialect's tests catch).
    pub fn register_op(&self, def: &'static OpDef) {
        let name = self.op_name(def.name);
        self.register_dialect(def.dialect());
        if self.op_def(name).is_some_and(|d| std::ptr::eq(d, def)) {
            return;
        }
        let format = crate::ods::format::compiled(def).unwrap_or_else(|e| panic!("{e}"));
        let effect_kinds = crate::interfaces::own_effect_kinds(def);
        let index = self.registrations.push(OpNameInfo {
            def,
            format,
            effect_kinds,
        });
        let info = &self.registrations[index];
        let i = name.0 as usize;
        self.op_infos[i].store(
            info as *const OpNameInfo as *mut OpNameInfo,
            std::sync::atomic::Ordering::Release,
        );
        // SAFETY: `registrations`' entries never move and live as long as
        // `self`, as the table does.
        unsafe { self.op_fast.set(i, info) };
        self.verify_epoch
            .store(new_verify_epoch(), std::sync::atomic::Ordering::Release);
    }

    /// Registers a dialect namespace (ops and attributes of registered dialects
    /// are checked; others need `allow_unregistered_dialects`).
    pub fn register_dialect(&self, namespace: &str) {
        let mut d = self.dialects.write();
        if !d.iter().any(|x| &**x == namespace) {
            d.push(namespace.into());
        }
    }

    /// The namespaces of the registered dialects, sorted.
    pub fn registered_dialects(&self) -> Vec<String> {
        let mut v: Vec<String> = self.dialects.read().iter().map(|d| d.to_string()).collect();
        v.sort();
        v.dedup();
        v
    }

    /// Whether a dialect namespace is registered.
    pub fn is_dialect_registered(&self, namespace: &str) -> bool {
        self.dialects.read().iter().any(|x| &**x == namespace)
    }

    /// Lets ops of unregistered dialects through the parser and verifier.
    pub fn set_allow_unregistered_dialects(&self, allow: bool) {
        self.allow_unregistered
            .store(allow, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether ops of unregistered dialects are allowed.
    pub fn allows_unregistered_dialects(&self) -> bool {
        self.allow_unregistered.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// All registered op definitions, sorted by name.
    pub fn registered_ops(&self) -> Vec<&'static OpDef> {
        let mut v: Vec<_> = (0..self.op_infos.count())
            .filter_map(|i| self.registration(OpName(i as u32)).map(|info| info.def))
            .collect();
        v.sort_by_key(|d| d.name);
        v
    }
}
