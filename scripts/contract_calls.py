#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# contract_calls.py: generate the C test that calls every public function of include/sinew/*.h
# with every kind of bad argument its parameters admit (docs/contracts.md):
#   - a NULL pointer (handles, inputs and outputs) unless the parameter is nullable,
#   - an index or size of -1 and of 2^30, an enum value of -1 and 99,
#   - a NaN and an infinite scalar, a zero length,
# each call run in a child process (a crash is a failure, and the suite runs under ASan + UBSan in
# CI), checked for the documented refusal (a status < 0, NULL, NaN, SN_NONE; by the return type,
# docs/contracts.md) and for a message in sn_last_error() that names the argument, equal to the
# object's own last error (sn_world_last_error, sn_arm_last_error, sn_maximal_last_error, the
# sn_error) when the object is there to hold it.
#
# A public function with a parameter or return type this script cannot classify makes the test
# fail (one failing case naming it): teach the script the type (TYPES below) or list it in
# EXCEPTIONS with the reason. Usage: contract_calls.py INCLUDE_DIR OUT.c MODEL_PATH
import re
import sys
from pathlib import Path

# ---- the parameters' kinds ----------------------------------------------------------------------

# the handles the fixture holds, by base type: the good value of such a parameter
HANDLES = {
    'sn_world': 'F.w', 'sn_system': 'F.s', 'sn_model': 'F.m', 'sn_data': 'F.d',
    'sn_arm': 'F.arm', 'sn_maximal': 'F.mx',
}
# enums: every value outside the enum is a bad argument
ENUMS = {
    'sn_scheme', 'sn_control_mode', 'sn_gyroscopic', 'sn_object', 'sn_joint_type',
    'sn_contact_model', 'sn_soft_integrator', 'sn_maximal_scheme', 'sn_status',
}
# structs passed by pointer (inputs and outputs): a zeroed one is the good value
STRUCTS = {
    'sn_world_opts', 'sn_data_opts', 'sn_load_opts', 'sn_setup_opts', 'sn_setup_report',
    'sn_actuator_desc', 'sn_actuator_state', 'sn_contact', 'sn_contact_row', 'sn_body_desc',
    'sn_arm_desc', 'sn_arm_inputs', 'sn_arm_report', 'sn_ik_target', 'sn_ik_opts',
    'sn_ik_report', 'sn_loop_id_report', 'sn_constraint_desc', 'sn_user_constraint',
    'sn_mesh_data', 'sn_sensor_desc', 'sn_sensor_info', 'sn_soft_params', 'sn_soft_point',
    'sn_constraint_error', 'sn_error', 'sn_format',
}
# int parameters by name: index (bad: -1, 2^30), size (bad: -1, 2^30), flag (any value is valid)
INDEX_NAMES = {'i', 'body', 'frame', 'joint', 'ujoint', 'dof', 't', 'id', 'k', 'first', 'a', 'b',
               'material', 'type'}
SIZE_NAMES = {'n', 'nq', 'nv', 'nqd', 'nx', 'ny', 'ntarget', 'n_ind', 'n_act', 'nact', 'sweeps',
              'substeps', 'max_iter', 'max_iterations', 'max_mul'}
FLAG_NAMES = {'enabled', 'on', 'enforced', 'balance', 'full'}
# options and error records are nullable everywhere (NULL: defaults, no record)
NULLABLE_NAMES = {'opts', 'err', 'report'}

# ---- what the fixture makes (good values) -------------------------------------------------------

# good values of int and real parameters by name (default: 0 and 0.5)
GOOD_INT = {'nq': 'F.m->nq', 'nv': 'F.m->nv', 'nqd': 'F.m->nv', 'nx': '2', 'ny': '2',
            'sweeps': '10', 'substeps': '1', 'max_iter': '10', 'max_iterations': '10',
            'max_mul': '8', 'ntarget': '1', 'n': '1', 'body': '1', 'frame': '1', 'joint': '0',
            'ujoint': '1', 'k': '1'}
GOOD_REAL = {'dt': '1e-3', 'tol': '1e-9', 'tolerance': '1e-8', 'erp': '0.2', 'mass': '1',
             'radius': '0.1', 'length': '0.2', 'k': '1', 'rest': '0', 'friction': '0.5',
             'restitution': '0', 'threshold': '0', 'height': '0'}

# per function: nullable parameters, good values, the return a refusal gives when it is not the
# return type's (docs/contracts.md), kinds of bad value a parameter does not have
# pointers the header lets be NULL ("NULL skips", "may be NULL", "nullable", "NULL: ...")
NULLABLE = {
    'sn_system_joint_wrench': {'force', 'torque'},
    'sn_system_body_contact_force': {'force', 'torque'},
    'sn_world_set_soft_pair': {'p'},
    'sn_model_joint_placement': {'axis', 'pos', 'rot'},
    'sn_maximal_set_body_state': {'quat', 'v', 'w', 'x'},
    'sn_aba': {'tau', 'udot'},
    'sn_system_constraint': {'impulse', 'separation'},
    'sn_system_update_mass_info': {'nreduced'},
    'sn_system_loop_error': {'rms', 'worst'},
    'sn_system_assemble': {'residual'},
    'sn_system_add_actuator': {'id'},
    'sn_system_step_torques': {'actuators', 'damping', 'external', 'pd', 'springs'},
    'sn_system_step_constraint_torques': {'contacts', 'friction', 'loops'},
    'sn_system_rotor': {'gear_ratio', 'spin_inertia'},
    'sn_system_springs': {'rest', 'stiffness'},
    'sn_point_jacobian': {'jp', 'jr'},
    'sn_frame_jacobian': {'jp', 'jr'},
    'sn_frame_pose': {'pos', 'rot'},
    'sn_frame_velocity': {'ang', 'lin'},
    'sn_frame_acceleration': {'ang', 'lin'},
    'sn_point_jdot_u': {'ang', 'lin'},
    'sn_joint_wrench_world': {'force', 'torque'},
    'sn_momentum': {'ang', 'lin'},
    'sn_com': {'com'},
    'sn_fk_acc': {'udot'},
    'sn_rnea': {'tau', 'udot'},
    'sn_inverse_dynamics': {'tau', 'udot'},
    'sn_set_state': {'u'},
    'sn_arm_step': {'in'},
    'sn_arm_set_state': {'q', 'qd'},
    'sn_arm_set_placement': {'rot'},
    'sn_arm_params': {'damping', 'friction', 'lower', 'sweeps', 'upper'},
    'sn_arm_mass_matrix': {'C'},
    'sn_arm_gyroscopic_matrix': {'H'},
    'sn_arm_kinetic_energy': {'C'},
    'sn_arm_from_model': {'desc'},
    'sn_maximal_add_body': {'id'},
    'sn_maximal_add_constraint': {'id'},
    'sn_maximal_add_user_constraint': {'id'},
    'sn_maximal_body_state': {'quat', 'v', 'w', 'x'},
    'sn_maximal_set_body_force': {'force', 'torque'},
    'sn_maximal_constraint_force': {'force', 'lambda', 'torque'},
    'sn_maximal_constraint_error': {'rms', 'worst'},
    'sn_maximal_momentum': {'angular', 'linear'},
    'sn_maximal_from_model': {'q', 'u'},
    'sn_maximal_joint_state': {'q', 'u'},
    'sn_world_add_constraint': {'id'},
    'sn_world_constraint_force': {'force', 'taut', 'torque'},
    'sn_world_add_maximal': {'first'},
    'sn_world_add_maximal_as': {'first', 'like'},
    'sn_world_maximal_joint_state': {'q', 'u'},
    'sn_world_add_mesh': {'scale'},
    'sn_world_save_state': {'written'},
    'sn_world_soft_pair': {'is_set'},
    'sn_system_add_soft_point': {'id'},
    'sn_system_add_soft_point_frame': {'id'},
    'sn_system_add_soft_geometry_points': {'added'},
    'sn_system_add_sensor': {'id'},
    'sn_mesh_read': {'scale'},
    'sn_load_urdf_string': {'base_dir', 'name'},
    'sn_load_mjcf_string': {'base_dir', 'name'},
    'sn_load_usd_string': {'name'},
    'sn_system_loop_inverse_dynamics': {'act_dofs', 'ind_dofs', 'lambda_out', 'udot_ind', 'udot_out'},
    'sn_system_loop_inverse_dynamics_actuators': {'ind_dofs', 'lambda_out', 'tau_out', 'udot_ind', 'udot_out'},
    'sn_system_loop_forward_dynamics': {'lambda_out', 'tau'},
    'sn_system_solve_ik': {'q_out'},
    'sn_system_ik_errors': {'errors', 'q'},
    'sn_system_apply_file': {'opts', 'report'},
    'sn_world_terrain_height': {'normal'},
}
# good values that make the rest of a call right, so that the bad argument is the refusal's
GOOD = {
    'sn_system_loop_inverse_dynamics_actuators': {'nact': 'sn_system_actuator_count(F.s)'},
    'sn_system_solve_ik': {'targets': '&F.target'},
    'sn_system_ik_errors': {'targets': '&F.target'},
    'sn_maximal_joint_state': {'mx': 'F.mxm'},
    'sn_system_set_actuator_torques': {'n': 'sn_system_actuator_count(F.s)'},
    'sn_system_actuator_states': {'n': 'sn_system_actuator_count(F.s)'},
    'sn_system_set_tendon_controls': {'n': 'F.m->ntactuator'},
    'sn_system_sensor_read': {'n': '0'},
    'sn_arm_set_damping': {'n': 'sn_arm_joint_count(F.arm)'},
    'sn_arm_set_friction': {'n': 'sn_arm_joint_count(F.arm)'},
    'sn_arm_set_stops': {'n': 'sn_arm_joint_count(F.arm)'},
    'sn_model_find': {'name': '"upper"'},
    'sn_model_set_body_mass': {'mass': '1'},
    'sn_world_add_box': {'size': 'F.ones'},
    'sn_world_add_mesh': {'path': 'F.mesh'},
    'sn_maximal_add_body': {'inertia': 'F.inertia'},
    'sn_maximal_set_body_state': {'quat': 'F.quat'},
    'sn_arm_set_placement': {'rot': 'F.eye'},
    'sn_system_set_rotor': {'gear_ratio': '1'},
    'sn_world_soft_pair': {'a': '0', 'b': '0'},
    'sn_world_set_soft_pair': {'a': '0', 'b': '0'},
    'sn_world_set_material_pair': {'a': '0', 'b': '0'},
    'sn_world_set_heightfield': {'dx': '1', 'dy': '1', 'z': 'F.ones'},
}
# what a refusal returns when it is not the return type's rule (each documented in the header)
REFUSAL = {
    'sn_arm_last_error': 'nonnull',
    'sn_maximal_last_error': 'nonnull',
    'sn_world_last_error': 'nonnull',
    'sn_world_last_warning': 'nonnull',
    'sn_status_str': 'nonnull',
    'sn_joint_type_str': 'nonnull',
    'sn_sensor_type_name': 'nonnull',
    'sn_sensor_dim': '0',
}
# total functions: any argument has a documented answer (a name, "unknown", a count of 0), so
# a bad one is not a refusal and leaves no message; only the return is checked
TOTAL = {'sn_arm_last_error', 'sn_maximal_last_error', 'sn_world_last_error',
         'sn_world_last_warning', 'sn_status_str', 'sn_joint_type_str', 'sn_sensor_type_name',
         'sn_sensor_dim'}
# bad values a parameter does not have: values it accepts (the header says so)
ACCEPT = {
    # the length of a caller's array cannot be checked: a count larger than the array is
    # undefined, as memcpy's is (the header says ntarget entries)
    'sn_system_solve_ik': {'ntarget': 'huge'},
    'sn_system_ik_errors': {'ntarget': 'huge'},
    'sn_system_assemble': {'max_iter': 'huge'},
    'sn_system_set_expo_options': {'max_mul': '-1'},
    'sn_world_terrain_height': {'x': 'inf', 'y': 'inf'},
}
# functions whose bad-argument calls are not made, and why (each also said in the header)
EXCEPTIONS = {
    # destructors take NULL as a no-op and have nothing to refuse; a dangling pointer is
    # undefined, as free()'s is
    'sn_world_destroy': 'NULL is a no-op; nothing else to refuse',
    'sn_model_destroy': 'NULL is a no-op; nothing else to refuse',
    'sn_data_destroy': 'NULL is a no-op; nothing else to refuse',
    'sn_arm_destroy': 'NULL is a no-op; nothing else to refuse',
    'sn_maximal_destroy': 'NULL is a no-op; nothing else to refuse',
    'sn_mesh_data_free': 'NULL is a no-op; nothing else to refuse',
    # the thread's last error: no argument
    'sn_last_error': 'no argument',
    'sn_clear_last_error': 'no argument',
}

# message words that name an argument besides its C name
ALIASES = {'dt': ['time step'], 'g': ['gravity'], 'in': ['inputs'], 'len': ['empty']}
# calls the fixture cannot make right but for the bad argument: the fixture has none of the
# objects an index names, so the index is refused first and its name is the message's
ALSO_NAMED = {
    # no tendons in the double pendulum: t is refused before nv
    ('sn_system_tendon_jacobian', 'nv'): ['t'],
    # no sensors: i is refused before n
    ('sn_system_sensor_read', 'n'): ['i'],
    # the fixture's sn_maximal has no constraints: id is refused before n
    ('sn_maximal_constraint_force', 'n'): ['id'],
    # no sn_maximal added to the fixture's world: first is refused before nq and nv
    ('sn_world_maximal_joint_state', 'nq'): ['first'],
    ('sn_world_maximal_joint_state', 'nv'): ['first'],
}


def parse_headers(incdir):
    """(header, name, return type, [(type, name, array)], doc) of every SN_API function."""
    out = []
    for h in sorted(Path(incdir).glob('*.h')):
        lines = h.read_text().splitlines()
        doc = []
        i = 0
        while i < len(lines):
            ln = lines[i].strip()
            if ln.startswith('///'):
                doc.append(ln[3:].strip())
                i += 1
                continue
            if ln.startswith('SN_API'):
                proto = ln
                while ';' not in proto:
                    i += 1
                    proto += ' ' + lines[i].strip()
                out.append((h.name, proto, ' '.join(doc)))
                doc = []
                i += 1
                continue
            if not ln.startswith('//') or ln == '':
                if ln != '':
                    doc = []
            i += 1
    funcs = []
    for header, proto, doc in out:
        m = re.match(r'SN_API\s+(.*?)\b(sn_\w+)\s*\((.*)\)\s*;', proto)
        if not m:
            funcs.append((header, proto, None, None, doc))
            continue
        ret, name, args = m.group(1).strip(), m.group(2), m.group(3).strip()
        params = []
        if args and args != 'void':
            for a in args.split(','):
                a = a.strip()
                pm = re.match(r'(.*?)(\w+)\s*(\[\s*(\d*)\s*\])?$', a)
                ptype = ' '.join(pm.group(1).split())
                params.append((ptype, pm.group(2), pm.group(4)))
        funcs.append((header, name, ret, params, doc))
    return funcs


def base_type(ptype):
    return re.sub(r'\bconst\b', '', ptype).replace('*', '').strip()


def classify(fn, ptype, pname, arr):
    """(kind, good value, [bad values]) or None when the parameter is unknown."""
    nullable = pname in NULLABLE.get(fn, set()) or pname in NULLABLE_NAMES
    good_over = GOOD.get(fn, {}).get(pname)
    accept = ACCEPT.get(fn, {}).get(pname, '')
    bt = base_type(ptype)
    stars = ptype.count('*') + (1 if arr is not None else 0)
    bad = []
    if stars == 0:
        if bt in ('int', 'long'):
            if pname in FLAG_NAMES:
                return ('flag', good_over or '1', [])
            if pname in INDEX_NAMES or pname in SIZE_NAMES:
                good = good_over or GOOD_INT.get(pname, '0')
                bad = ['-2' if accept == '-1' else '-1'] + ([] if accept == 'huge' else ['(1 << 30)'])
                return ('index' if pname in INDEX_NAMES else 'size', good, bad)
            return None
        if bt == 'unsigned':
            return ('bits', good_over or '1u', [])
        if bt == 'size_t':
            return ('length', good_over or '64', ['0'])
        if bt == 'sn_real':
            good = good_over or GOOD_REAL.get(pname, '0.5')
            bad = ['NAN'] + ([] if 'inf' in accept else ['INFINITY'])
            return ('real', good, bad)
        if bt in ENUMS:
            return ('enum', good_over or '(%s)0' % bt, ['(%s)-1' % bt, '(%s)99' % bt])
        return None
    # pointers
    if bt in HANDLES and stars == 1:
        return ('handle', good_over or HANDLES[bt], [] if nullable else ['NULL'])
    if bt in HANDLES and stars == 2:
        return ('out handle', good_over or '(void*)F.slot', [] if nullable else ['NULL'])
    if bt in ('sn_real', 'int', 'uint64_t', 'size_t', 'void', 'char') or bt in STRUCTS:
        if pname == 'err' and bt == 'sn_error':
            return ('pointer', '&F.err', [])
        if bt == 'char':
            good = good_over or ('F.path' if pname in ('path', 'xml', 'text') else '"x"')
            if pname in ('xml', 'text'):
                good = good_over or 'F.text'
        else:
            good = good_over or '(void*)F.buf[%d]'
        return ('pointer', good, [] if nullable else ['NULL'])
    return None


def refusal_check(fn, ret):
    """C expression on `r` that is true for the documented refusal, or None."""
    rule = REFUSAL.get(fn)
    if rule == 'nonnull':
        return 'r != NULL'
    if rule is not None:
        return 'r == %s' % rule
    r = ' '.join(ret.split())
    if r == 'void':
        return ''
    if r == 'sn_status':
        return 'r < 0'
    if r.endswith('*'):
        return 'r == NULL'
    if r == 'sn_real':
        return 'isnan(r)'
    if r in ('int', 'long'):
        return 'r == SN_NONE'
    if r in ENUMS:
        return 'r == (%s)SN_NONE' % r
    if r == 'sn_soft_params':
        return ''  # a struct: the defaults (sn_soft_params_default), the message tells
    return None


def world_of(params):
    """C expression of the object whose own last error must equal the thread's, or None."""
    for ptype, pname, arr in params:
        bt = base_type(ptype)
        if ptype.count('*') == 1 and bt == 'sn_world':
            return ('world', pname)
        if ptype.count('*') == 1 and bt == 'sn_system':
            return ('system', pname)
        if ptype.count('*') == 1 and bt == 'sn_arm':
            return ('arm', pname)
        if ptype.count('*') == 1 and bt == 'sn_maximal':
            return ('maximal', pname)
    return None


def gen(incdir, out, model):
    funcs = parse_headers(incdir)
    cases = []  # (function, argument, bad value, C body)
    unknown = []
    for header, name, ret, params, doc in funcs:
        if ret is None:
            unknown.append('%s: cannot parse "%s"' % (header, name))
            continue
        if name in EXCEPTIONS:
            continue
        rc = refusal_check(name, ret)
        if rc is None:
            unknown.append('%s: return type "%s" has no refusal rule' % (name, ret))
            continue
        kinds = []
        for ptype, pname, arr in params:
            c = classify(name, ptype, pname, arr)
            if c is None:
                unknown.append('%s: parameter "%s %s" has no kind' % (name, ptype, pname))
                break
            kinds.append(c)
        else:
            owner = world_of(params)
            bufi = 0
            goods = []
            for (kind, good, bad) in kinds:
                if '%d' in good:
                    good = good % bufi
                    bufi += 1
                goods.append(good)
            for j, (ptype, pname, arr) in enumerate(params):
                for bad in kinds[j][2]:
                    args = list(goods)
                    args[j] = bad
                    call = '%s(%s)' % (name, ', '.join(args))
                    cast = [t for t, _, a in params]
                    bad_handle = kinds[j][0] == 'handle'
                    oexpr = None
                    if owner:
                        oexpr = goods[[p for _, p, _ in params].index(owner[1])]
                    cases.append((name, pname, bad, ret, call, rc, (owner, oexpr), bad_handle,
                                  [p for _, p, _ in params]))
    w = []
    w.append('// generated by scripts/contract_calls.py from include/sinew/*.h: do not edit')
    w.append('#include "sinew/sn.h"')
    w.append('#include "contract_fixture.h"')
    w.append('#include <math.h>')
    w.append('#include <stdio.h>')
    w.append('#include <string.h>')
    w.append('')
    w.append('static const char* const contract_unknown[] = {')
    for u in unknown:
        w.append('    "%s",' % u.replace('"', '\\"'))
    w.append('    NULL};')
    w.append('')
    for k, (name, pname, bad, ret, call, rc, owner, bad_handle, pnames) in enumerate(cases):
        w.append('static int case_%d(void) {' % k)
        r = ' '.join(ret.split())
        if r == 'void':
            w.append('    %s;' % call)
        else:
            w.append('    %s r = %s;' % (r, call))
            if rc:
                w.append('    if (!(%s)) return cf_fail("the refusal\'s return (%s) is not %s");'
                         % (rc, rc.replace('r ', 'r ').replace('"', ''), 'documented'))
        if name in TOTAL:
            w.append('    return 0;')
            w.append('}')
            continue
        names = [pname] + ALIASES.get(pname, []) + ALSO_NAMED.get((name, pname), [])
        w.append('    static const char* const names[] = {%s, NULL};'
                 % ', '.join('"%s"' % n for n in names))
        w.append('    if (cf_check_message(names)) return 1;')
        owner, oexpr = owner
        if owner and owner[1] != pname:
            w.append('    if (cf_check_owner(%d, %s)) return 1;'
                     % (['world', 'system', 'arm', 'maximal'].index(owner[0]), oexpr))
        if 'err' in pnames and not (pname == 'err'):
            w.append('    if (cf_check_error_record()) return 1;')
        w.append('    return 0;')
        w.append('}')
    w.append('')
    w.append('const cf_case contract_cases[] = {')
    for k, (name, pname, bad, ret, call, rc, owner, bad_handle, pnames) in enumerate(cases):
        w.append('    {"%s", "%s", "%s", case_%d},' % (name, pname, bad.replace('"', ''), k))
    w.append('    {NULL, NULL, NULL, NULL}};')
    w.append('const char* const* contract_unknown_list = contract_unknown;')
    w.append('const char* contract_model_path = "%s";' % model)
    w.append('int contract_function_count = %d;' % len(funcs))
    Path(out).write_text('\n'.join(w) + '\n')


if __name__ == '__main__':
    if len(sys.argv) != 4:
        sys.exit('usage: contract_calls.py INCLUDE_DIR OUT.c MODEL_PATH')
    gen(sys.argv[1], sys.argv[2], sys.argv[3])
