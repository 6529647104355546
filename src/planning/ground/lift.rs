//! Lifted schemas: objects, predicates and their strata, numeric initial values, and PDDL
//! actions and derived rules translated to index-based lifted actions ([`LAction`]).

use std::collections::HashMap;

use super::GroundError;
use crate::planning::normalize::{NormalAction, NormalEffect, NormalTask};
use crate::planning::pddl::{Atom, Domain, Literal, Metric, NumExpr, Problem, Term};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Arg {
    Var(usize),
    Obj(u32),
}

#[derive(Clone, Debug)]
pub(super) struct LAtom {
    pub(super) pred: u32,
    pub(super) args: Vec<Arg>,
}

#[derive(Clone, Debug)]
pub(super) enum LLit {
    Pos(LAtom),
    Neg(LAtom),
    Eq(Arg, Arg),
    NotEq(Arg, Arg),
}

#[derive(Clone, Debug)]
pub(super) struct LEffect {
    /// forall variables introduced by this effect (indices into the binding).
    pub(super) cond: Vec<LLit>,
    pub(super) add: Vec<LAtom>,
    pub(super) del: Vec<LAtom>,
    /// Extra variables (from enclosing foralls) with their allowed objects.
    pub(super) forall_vars: Vec<(usize, Vec<u32>)>,
}

/// A lifted action-cost term.
#[derive(Clone, Debug)]
pub(super) enum LCost {
    Const(u64),
    Term(String, Vec<Arg>),
}

pub(super) struct LAction {
    pub(super) name: String,
    /// Allowed objects per variable (action parameters first, then forall variables).
    pub(super) domains: Vec<Vec<u32>>,
    pub(super) num_params: usize,
    pub(super) pos: Vec<LAtom>,
    pub(super) neg: Vec<LAtom>,
    pub(super) eqs: Vec<(Arg, Arg, bool)>,
    pub(super) effects: Vec<LEffect>,
    pub(super) cost: Vec<LCost>,
}

pub(super) type Key = (u32, Vec<u32>);

pub(super) struct Grounder<'a> {
    pub(super) domain: &'a Domain,
    pub(super) objects: Vec<String>,
    pub(super) obj_index: HashMap<String, u32>,
    pub(super) obj_type: Vec<String>,
    pub(super) preds: Vec<(String, usize)>,
    pub(super) pred_index: HashMap<String, u32>,
    pub(super) fluent: Vec<bool>,
    pub(super) derived: Vec<bool>,
    /// The stratum of each derived predicate (0 for the others).
    pub(super) layer: Vec<u32>,
    /// Action costs count (a `total-cost` metric); otherwise every action costs 1.
    pub(super) metric: bool,
    /// Numeric initial values by function and objects.
    pub(super) values: HashMap<(String, Vec<u32>), u64>,
}

impl<'a> Grounder<'a> {
    pub(super) fn new(
        domain: &'a Domain,
        problem: &Problem,
        normal: &NormalTask,
    ) -> Result<Self, GroundError> {
        let mut g = Grounder {
            domain,
            objects: Vec::new(),
            obj_index: HashMap::new(),
            obj_type: Vec::new(),
            preds: Vec::new(),
            pred_index: HashMap::new(),
            fluent: Vec::new(),
            derived: Vec::new(),
            layer: Vec::new(),
            metric: problem.metric == Some(Metric::MinimizeTotalCost),
            values: HashMap::new(),
        };
        for o in domain.constants.iter().chain(&problem.objects) {
            if o.ty != "object" && !domain.types.iter().any(|t| t.name == o.ty) {
                return Err(GroundError::UnknownType(o.name.clone(), o.ty.clone()));
            }
            if g.obj_index.contains_key(&o.name) {
                continue; // a problem may repeat a domain constant
            }
            g.obj_index.insert(o.name.clone(), g.objects.len() as u32);
            g.objects.push(o.name.clone());
            g.obj_type.push(o.ty.clone());
        }
        for p in &normal.predicates {
            g.pred_index.insert(p.name.clone(), g.preds.len() as u32);
            g.preds.push((p.name.clone(), p.params.len()));
        }
        g.fluent = vec![false; g.preds.len()];
        g.derived = vec![false; g.preds.len()];
        fn mark(g: &mut Grounder, es: &[NormalEffect]) {
            for e in es {
                match e {
                    NormalEffect::Add(a) | NormalEffect::Del(a) => {
                        if let Some(&p) = g.pred_index.get(&a.predicate) {
                            g.fluent[p as usize] = true;
                        }
                    }
                    NormalEffect::When(_, inner) | NormalEffect::Forall(_, inner) => mark(g, inner),
                }
            }
        }
        for a in &normal.actions {
            mark(&mut g, &a.effects);
        }
        for r in &normal.rules {
            let &p = g
                .pred_index
                .get(&r.head.name)
                .ok_or_else(|| GroundError::UnknownPredicate(r.head.name.clone()))?;
            g.fluent[p as usize] = true;
            g.derived[p as usize] = true;
        }
        g.values = g.function_values(problem)?;
        g.layer = g.strata(normal)?;
        Ok(g)
    }

    /// Stratifies the rules: a head's layer is at least that of every derived predicate its
    /// body uses and above that of every one it negates. Layers above the number of derived
    /// predicates mean a cycle through negation.
    pub(super) fn strata(&self, normal: &NormalTask) -> Result<Vec<u32>, GroundError> {
        let mut layer = vec![0u32; self.preds.len()];
        let limit = self.derived.iter().filter(|&&d| d).count() as u32;
        loop {
            let mut changed = false;
            for r in &normal.rules {
                let h = self.pred_index[&r.head.name] as usize;
                for l in &r.body {
                    let (a, above) = match l {
                        Literal::Pos(a) => (a, 0),
                        Literal::Neg(a) => (a, 1),
                        Literal::Eq(..) | Literal::NotEq(..) => continue,
                    };
                    let Some(&q) = self.pred_index.get(&a.predicate) else {
                        continue;
                    };
                    if self.derived[q as usize] && layer[h] < layer[q as usize] + above {
                        layer[h] = layer[q as usize] + above;
                        if layer[h] > limit {
                            return Err(GroundError::NotStratified(r.head.name.clone()));
                        }
                        changed = true;
                    }
                }
            }
            if !changed {
                return Ok(layer);
            }
        }
    }

    /// The problem's numeric initial values, keyed by function and object ids.
    pub(super) fn function_values(
        &self,
        problem: &Problem,
    ) -> Result<HashMap<(String, Vec<u32>), u64>, GroundError> {
        let mut values = HashMap::new();
        for v in &problem.values {
            let f = &v.term.predicate;
            let declared = self
                .domain
                .functions
                .iter()
                .any(|d| &d.name == f && d.params.len() == v.term.args.len());
            if !declared {
                return Err(GroundError::UnknownFunction(v.term.to_string()));
            }
            let args = v
                .term
                .args
                .iter()
                .map(|t| match self.arg(t, &HashMap::new())? {
                    Arg::Obj(o) => Ok(o),
                    Arg::Var(_) => Err(GroundError::UnknownObject(t.as_str().into())),
                })
                .collect::<Result<Vec<_>, _>>()?;
            values.insert((f.clone(), args), v.value);
        }
        Ok(values)
    }

    pub(super) fn objects_of(&self, ty: &str) -> Vec<u32> {
        (0..self.objects.len() as u32)
            .filter(|&o| self.domain.is_subtype(&self.obj_type[o as usize], ty))
            .collect()
    }

    pub(super) fn pred(&self, name: &str, arity: usize) -> Result<u32, GroundError> {
        let &p = self
            .pred_index
            .get(name)
            .ok_or_else(|| GroundError::UnknownPredicate(name.into()))?;
        let want = self.preds[p as usize].1;
        if want != arity {
            return Err(GroundError::Arity(name.into(), want, arity));
        }
        Ok(p)
    }

    pub(super) fn arg(&self, t: &Term, vars: &HashMap<String, usize>) -> Result<Arg, GroundError> {
        match t {
            Term::Var(v) => vars
                .get(v)
                .map(|&i| Arg::Var(i))
                .ok_or_else(|| GroundError::UnknownObject(v.clone())),
            Term::Object(o) => self
                .obj_index
                .get(o)
                .map(|&i| Arg::Obj(i))
                .ok_or_else(|| GroundError::UnknownObject(o.clone())),
        }
    }

    pub(super) fn latom(
        &self,
        a: &Atom,
        vars: &HashMap<String, usize>,
    ) -> Result<LAtom, GroundError> {
        Ok(LAtom {
            pred: self.pred(&a.predicate, a.args.len())?,
            args: a
                .args
                .iter()
                .map(|t| self.arg(t, vars))
                .collect::<Result<_, _>>()?,
        })
    }

    pub(super) fn llit(
        &self,
        l: &Literal,
        vars: &HashMap<String, usize>,
    ) -> Result<LLit, GroundError> {
        Ok(match l {
            Literal::Pos(a) => LLit::Pos(self.latom(a, vars)?),
            Literal::Neg(a) => LLit::Neg(self.latom(a, vars)?),
            Literal::Eq(a, b) => LLit::Eq(self.arg(a, vars)?, self.arg(b, vars)?),
            Literal::NotEq(a, b) => LLit::NotEq(self.arg(a, vars)?, self.arg(b, vars)?),
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn flatten_effects(
        &self,
        es: &[NormalEffect],
        vars: &mut HashMap<String, usize>,
        domains: &mut Vec<Vec<u32>>,
        cond: &[LLit],
        forall_vars: &[(usize, Vec<u32>)],
        out: &mut Vec<LEffect>,
    ) -> Result<(), GroundError> {
        let mut simple = LEffect {
            cond: cond.to_vec(),
            add: vec![],
            del: vec![],
            forall_vars: forall_vars.to_vec(),
        };
        for e in es {
            match e {
                NormalEffect::Add(a) => simple.add.push(self.latom(a, vars)?),
                NormalEffect::Del(a) => simple.del.push(self.latom(a, vars)?),
                NormalEffect::When(c, inner) => {
                    let mut c2 = cond.to_vec();
                    for l in c {
                        c2.push(self.llit(l, vars)?);
                    }
                    self.flatten_effects(inner, vars, domains, &c2, forall_vars, out)?;
                }
                NormalEffect::Forall(params, inner) => {
                    let saved = vars.clone();
                    let mut fv = forall_vars.to_vec();
                    for p in params {
                        let idx = domains.len();
                        let objs = self.objects_of(&p.ty);
                        domains.push(objs.clone());
                        vars.insert(p.name.clone(), idx);
                        fv.push((idx, objs));
                    }
                    self.flatten_effects(inner, vars, domains, cond, &fv, out)?;
                    *vars = saved;
                }
            }
        }
        if !simple.add.is_empty() || !simple.del.is_empty() {
            out.push(simple);
        }
        Ok(())
    }

    pub(super) fn lift_action(&self, a: &NormalAction) -> Result<LAction, GroundError> {
        let mut vars = HashMap::new();
        let mut domains = Vec::new();
        for p in &a.params {
            vars.insert(p.name.clone(), domains.len());
            domains.push(self.objects_of(&p.ty));
        }
        let mut la = LAction {
            name: a.name.clone(),
            domains: Vec::new(),
            num_params: a.params.len(),
            pos: vec![],
            neg: vec![],
            eqs: vec![],
            effects: vec![],
            cost: a
                .cost
                .iter()
                .map(|c| match c {
                    NumExpr::Const(v) => Ok(LCost::Const(*v)),
                    NumExpr::Term(t) => Ok(LCost::Term(
                        t.predicate.clone(),
                        t.args
                            .iter()
                            .map(|x| self.arg(x, &vars))
                            .collect::<Result<_, _>>()?,
                    )),
                })
                .collect::<Result<_, GroundError>>()?,
        };
        for l in &a.precondition {
            match self.llit(l, &vars)? {
                LLit::Pos(x) => la.pos.push(x),
                LLit::Neg(x) => la.neg.push(x),
                LLit::Eq(x, y) => la.eqs.push((x, y, true)),
                LLit::NotEq(x, y) => la.eqs.push((x, y, false)),
            }
        }
        self.flatten_effects(
            &a.effects,
            &mut vars,
            &mut domains,
            &[],
            &[],
            &mut la.effects,
        )?;
        la.domains = domains;
        Ok(la)
    }

    pub(super) fn ground_key(&self, a: &LAtom, b: &[u32]) -> Key {
        (
            a.pred,
            a.args
                .iter()
                .map(|x| match *x {
                    Arg::Var(i) => b[i],
                    Arg::Obj(o) => o,
                })
                .collect(),
        )
    }

    pub(super) fn fact_name(&self, k: &Key) -> String {
        let mut s = format!("({}", self.preds[k.0 as usize].0);
        for &o in &k.1 {
            s.push(' ');
            s.push_str(&self.objects[o as usize]);
        }
        s.push(')');
        s
    }
}

pub(super) fn val(a: Arg, b: &[u32]) -> u32 {
    match a {
        Arg::Var(i) => b[i],
        Arg::Obj(o) => o,
    }
}
