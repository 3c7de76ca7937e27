import { builder } from './builder.ts';
import './types/common.ts';
import './types/user.ts';
import './types/organization.ts';
import './types/member.ts';
import './types/team.ts';
import './types/collection.ts';
import './types/space.ts';
import './types/custom-field.ts';
import './types/content.ts';
import './types/change-request.ts';
import './types/search.ts';
import './types/site.ts';
import './types/viewer.ts';

export const schema = builder.toSchema();
