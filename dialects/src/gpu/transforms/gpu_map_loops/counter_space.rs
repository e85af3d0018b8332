//! Affine expressions over the thread counters of a mapped band and the
//! host values its bounds use.
//!
//! Dimension `p < depth` is the counter `t_p` of band loop `p` (its
//! iteration number: the loop's induction variable is `lb + step * t_p`);
//! dimension `depth + i` is host value `inputs[i]`. Every value is a
//! dimension (valid wherever the band was, and inside the launch), so maps
//! built from these expressions need no symbols.

use lf_ir::affine::{AffineExpr, AffineMap, BinaryOp, ExprView};
use lf_ir::Value;

/// The expression space of one band.
#[derive(Clone, Debug)]
pub struct CounterSpace {
    /// How many counters (band loops).
    pub depth: usize,
    /// The host values, dimension `depth + i` for `inputs[i]`.
    pub inputs: Vec<Value>,
}

impl CounterSpace {
    /// A space with `depth` counters and no host values yet.
    pub fn new(depth: usize) -> CounterSpace {
        CounterSpace {
            depth,
            inputs: Vec::new(),
        }
    }

    /// The dimension of host value `v` (added on first use).
    pub fn input(&mut self, v: Value) -> AffineExpr {
        let i = match self.inputs.iter().position(|&x| x == v) {
            Some(i) => i,
            None => {
                self.inputs.push(v);
                self.inputs.len() - 1
            }
        };
        AffineExpr::dim((self.depth + i) as u32)
    }

    /// The counter `t_p`.
    pub fn counter(&self, p: usize) -> AffineExpr {
        AffineExpr::dim(p as u32)
    }

    /// Result `result` of `map` applied to `operands` (dimensions then
    /// symbols), where `known(v)` gives the expression of operands already
    /// in the space (band induction variables) and every other operand is
    /// a host value.
    pub fn apply(
        &mut self,
        map: &AffineMap,
        result: usize,
        operands: &[Value],
        known: &dyn Fn(Value) -> Option<AffineExpr>,
    ) -> AffineExpr {
        let exprs: Vec<AffineExpr> = operands
            .iter()
            .map(|&v| known(v).unwrap_or_else(|| self.input(v)))
            .collect();
        let nd = map.num_dims() as usize;
        map.result(result).replace_dims_and_symbols(&exprs[..nd], &exprs[nd..])
    }

    /// Whether `e` uses any counter.
    pub fn uses_counters(&self, e: &AffineExpr) -> bool {
        (0..self.depth).any(|p| e.is_function_of_dim(p as u32))
    }

    /// `e` as `Σ c_p · t_p + rest` with constant `c_p` and `rest` free of
    /// counters, or `None` when a counter appears in a product with a
    /// non-constant, a division or a modulo.
    pub fn split_counters(&self, e: &AffineExpr) -> Option<(Vec<i64>, AffineExpr)> {
        if !self.uses_counters(e) {
            return Some((vec![0; self.depth], e.clone()));
        }
        match e.view() {
            ExprView::Dim(p) if (p as usize) < self.depth => {
                let mut c = vec![0; self.depth];
                c[p as usize] = 1;
                Some((c, AffineExpr::constant(0)))
            }
            ExprView::Binary(BinaryOp::Add, l, r) => {
                let (cl, rl) = self.split_counters(l)?;
                let (cr, rr) = self.split_counters(r)?;
                let c = cl
                    .iter()
                    .zip(&cr)
                    .map(|(a, b)| a.checked_add(*b))
                    .collect::<Option<Vec<_>>>()?;
                Some((c, rl.add(&rr)))
            }
            ExprView::Binary(BinaryOp::Mul, l, r) => {
                let (k, x) = match (l.as_constant(), r.as_constant()) {
                    (_, Some(k)) => (k, l),
                    (Some(k), _) => (k, r),
                    _ => return None,
                };
                let (c, rest) = self.split_counters(x)?;
                let c = c.iter().map(|a| a.checked_mul(k)).collect::<Option<Vec<_>>>()?;
                Some((c, rest.mul_const(k)))
            }
            _ => None,
        }
    }
}

/// A map over the values of `space` for `exprs`, reduced to the dimensions
/// they use: the map and its operands. `counters[p]` is the value of
/// counter `p` (used only when an expression uses it).
pub fn compact_map(exprs: &[AffineExpr], space: &CounterSpace, counters: &[Value]) -> (AffineMap, Vec<Value>) {
    let total = space.depth + space.inputs.len();
    let mut used = vec![false; total];
    for e in exprs {
        e.mark_used_dims(&mut used);
    }
    let mut operands = Vec::new();
    let mut renumber = Vec::with_capacity(total);
    for (p, &u) in used.iter().enumerate() {
        if u {
            renumber.push(AffineExpr::dim(operands.len() as u32));
            operands.push(if p < space.depth {
                counters[p]
            } else {
                space.inputs[p - space.depth]
            });
        } else {
            renumber.push(AffineExpr::constant(0));
        }
    }
    let results = exprs.iter().map(|e| e.replace_dims(&renumber)).collect();
    (AffineMap::new(operands.len() as u32, 0, results), operands)
}
