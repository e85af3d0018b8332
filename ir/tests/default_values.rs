//! `AttrDef::default_value` caches defaults per thread and context: each
//! context must get its own uniqued attribute, even when a later context
//! lives at the address of a dropped one.

use lf_ir::ods::constraints::STRING_ATTR;
use lf_ir::ods::AttrDef;
use lf_ir::{AttrData, Context};

static WITH_DEFAULT: AttrDef = AttrDef::with_default("mode", &STRING_ATTR, |ctx| ctx.string_attr("fast"));

fn is_fast(ctx: &Context, a: lf_ir::Attribute) -> bool {
    matches!(ctx.attr_data(a), AttrData::String { value, .. } if &**value == "fast")
}

#[test]
fn each_context_gets_its_own_default() {
    let first = Context::new();
    let a = WITH_DEFAULT.default_value(&first).expect("has a default");
    assert!(is_fast(&first, a));
    assert_eq!(WITH_DEFAULT.default_value(&first), Some(a), "made once, then reused");
    for round in 0..4 {
        // Other contexts (some at the address of a dropped one) unique other
        // attributes first, so the default's id differs from context to context.
        let ctx = Context::new();
        for i in 0..=round {
            ctx.string_attr(&format!("other {i}"));
        }
        assert_ne!(ctx.uid(), first.uid());
        let b = WITH_DEFAULT.default_value(&ctx).expect("has a default");
        assert!(
            is_fast(&ctx, b),
            "round {round}: the default must be this context's attribute"
        );
        assert_eq!(b, ctx.string_attr("fast"));
    }
    assert_eq!(AttrDef::required("x", &STRING_ATTR).default_value(&first), None);
}
